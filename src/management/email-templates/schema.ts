/**
 * Schemas of /api/v2/email-templates, from the service's OpenAPI document
 * (`CreateEmailTemplateRequestContent`, `SetEmailTemplateRequestContent`,
 * `UpdateEmailTemplateRequestContent`, `GetEmailTemplateResponseContent`),
 * with Gatehouse's bounds where the document gives none: a body of at most
 * 65,536 characters (liquidjs parses at most 70,000), a subject and sender
 * of 1,000, a resultUrl of 2,048, a link lifetime of at most 30 days.
 */
import { Type } from '@sinclair/typebox';
import { EMAIL_TEMPLATE_NAMES } from '../../domain/email/templates.js';

export const TemplateName = Type.Union(EMAIL_TEMPLATE_NAMES.map((n) => Type.Literal(n)));
const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const members = {
  template: TemplateName,
  body: nullable(Type.String({ maxLength: 65_536 })),
  from: nullable(Type.String({ maxLength: 1000 })),
  resultUrl: Type.Optional(nullable(Type.String({ maxLength: 2048 }))),
  subject: nullable(Type.String({ maxLength: 1000 })),
  syntax: nullable(Type.String({ maxLength: 20 })),
  urlLifetimeInSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2_592_000 }), Type.Null()])),
  includeEmailInRedirect: Type.Optional(Type.Boolean()),
  enabled: Type.Union([Type.Boolean(), Type.Null()]),
};

/** POST and PUT: the document's required members (template, body, from, subject, syntax, enabled). */
export const SetEmailTemplateBody = Type.Object(members, { additionalProperties: false });
export const UpdateEmailTemplateBody = Type.Partial(Type.Object(members), { additionalProperties: false });

export const EmailTemplateResponse = Type.Object(
  {
    template: TemplateName,
    body: Type.Union([Type.String(), Type.Null()]),
    from: Type.Union([Type.String(), Type.Null()]),
    resultUrl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    subject: Type.Union([Type.String(), Type.Null()]),
    syntax: Type.Union([Type.String(), Type.Null()]),
    urlLifetimeInSeconds: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    includeEmailInRedirect: Type.Boolean(),
    enabled: Type.Union([Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: false },
);

export const TemplateParams = Type.Object({ templateName: TemplateName });
