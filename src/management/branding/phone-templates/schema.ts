/** Schemas of /api/v2/branding/phone/templates, from the service's document (PhoneTemplate, its create and update bodies). */
import { Type, type Static } from '@sinclair/typebox';
import { PHONE_TEMPLATE_TYPES } from '../../../domain/branding/phone-templates.js';

const From = Type.String({ minLength: 1, maxLength: 16, description: "Default phone number to be used as 'from' when sending a phone notification" });
const Body = Type.Object(
  { text: Type.Optional(Type.String({ minLength: 1, maxLength: 20000 })), voice: Type.Optional(Type.String({ minLength: 1, maxLength: 20000 })) },
  { additionalProperties: false, minProperties: 1 },
);
const Content = Type.Object({ syntax: Type.Optional(Type.String({ maxLength: 32 })), from: Type.Optional(From), body: Type.Optional(Body) }, { additionalProperties: false, minProperties: 1 });
const TemplateType = Type.Union(PHONE_TEMPLATE_TYPES.map((t) => Type.Literal(t)));

export const CreatePhoneTemplateBody = Type.Object(
  { type: TemplateType, disabled: Type.Optional(Type.Boolean()), content: Type.Optional(Content) },
  { additionalProperties: false },
);
export type CreatePhoneTemplate = Static<typeof CreatePhoneTemplateBody>;
export const UpdatePhoneTemplateBody = Type.Object(
  { disabled: Type.Optional(Type.Boolean()), content: Type.Optional(Type.Object({ from: Type.Optional(From), body: Type.Optional(Body) }, { additionalProperties: false, minProperties: 1 })) },
  { additionalProperties: false },
);
export type UpdatePhoneTemplate = Static<typeof UpdatePhoneTemplateBody>;

export const PhoneTemplateResponse = Type.Object({
  id: Type.Optional(Type.String()),
  channel: Type.String(),
  customizable: Type.Boolean(),
  tenant: Type.String(),
  content: Type.Object({ syntax: Type.Optional(Type.String()), from: Type.Optional(Type.String()), body: Type.Object({ text: Type.Optional(Type.String()), voice: Type.Optional(Type.String()) }) }),
  type: Type.String(),
  disabled: Type.Boolean(),
});
export const PhoneTemplateList = Type.Object({ templates: Type.Array(PhoneTemplateResponse) });
export const PhoneTemplateIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });
export const TryTemplateResponse = Type.Object({ message: Type.String() });
