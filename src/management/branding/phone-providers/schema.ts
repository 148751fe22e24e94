/**
 * Schemas of /api/v2/branding/phone/providers, from the service's document
 * (CreateBrandingPhoneProviderRequestContent, UpdateBrandingPhoneProvider-
 * RequestContent, PhoneProviderSchemaMasked, CreatePhoneProviderSendTest-
 * RequestContent). The Twilio and custom configurations are one object here;
 * which members a name needs is checked by src/domain/branding/phone-providers.ts.
 * The create body admits the read-only members an exported provider carries
 * (the document's `additionalProperties: true`) and ignores them.
 */
import { Type, type Static } from '@sinclair/typebox';

const Name = Type.Union([Type.Literal('twilio'), Type.Literal('custom')], { description: 'Name of the phone notification provider' });
const DeliveryMethod = Type.Union([Type.Literal('text'), Type.Literal('voice')]);
const Configuration = Type.Object(
  {
    sid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    default_from: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    mssid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    delivery_methods: Type.Array(DeliveryMethod, { minItems: 1, maxItems: 2, uniqueItems: true }),
  },
  { additionalProperties: false },
);
const Credentials = Type.Object({ auth_token: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }, { additionalProperties: false });

export const CreatePhoneProviderBody = Type.Object(
  {
    name: Name,
    disabled: Type.Optional(Type.Boolean()),
    configuration: Type.Optional(Configuration),
    credentials: Credentials,
    id: Type.Optional(Type.String({ maxLength: 255 })),
    tenant: Type.Optional(Type.String({ maxLength: 255 })),
    channel: Type.Optional(Type.Literal('phone')),
    created_at: Type.Optional(Type.String({ maxLength: 27 })),
    updated_at: Type.Optional(Type.String({ maxLength: 27 })),
  },
  { additionalProperties: false },
);
export type CreatePhoneProvider = Static<typeof CreatePhoneProviderBody>;

export const UpdatePhoneProviderBody = Type.Object(
  { name: Type.Optional(Name), disabled: Type.Optional(Type.Boolean()), credentials: Type.Optional(Credentials), configuration: Type.Optional(Configuration) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdatePhoneProvider = Static<typeof UpdatePhoneProviderBody>;

export const PhoneProviderResponse = Type.Object({
  id: Type.String(),
  tenant: Type.String(),
  name: Type.String(),
  channel: Type.String(),
  disabled: Type.Boolean(),
  configuration: Type.Object({
    sid: Type.Optional(Type.String()),
    default_from: Type.Optional(Type.String()),
    mssid: Type.Optional(Type.String()),
    delivery_methods: Type.Array(Type.String()),
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export const PhoneProviderList = Type.Object({ providers: Type.Array(PhoneProviderResponse) });
export const PhoneProviderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });

/** The body of both `try` operations (the provider's and a template's). */
export const TryBody = Type.Object(
  { to: Type.String({ minLength: 1, maxLength: 16, pattern: '^\\+[1-9][0-9]{5,14}$' }), delivery_method: Type.Optional(DeliveryMethod) },
  { additionalProperties: false },
);
export type Try = Static<typeof TryBody>;
export const TryProviderResponse = Type.Object({ code: Type.Number(), message: Type.String() });
