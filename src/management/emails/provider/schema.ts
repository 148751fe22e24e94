/**
 * Schemas of /api/v2/emails/provider, from the service's OpenAPI document
 * (`CreateEmailProviderRequestContent`, `UpdateEmailProviderRequestContent`,
 * `GetEmailProviderResponseContent`), for the one provider Gatehouse
 * delivers through: `smtp`. The response's credentials never carry
 * `smtp_pass` (the document's `EmailProviderCredentials` has no member for it).
 */
import { Type } from '@sinclair/typebox';
import { FieldsQuery } from '../../fields.js';

/** RFC 1123 host names, or an IPv4 or IPv6 literal (the document's `EmailSMTPHost`). */
const HOST_PATTERN = '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,62}[a-zA-Z0-9])\\.)*([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,62}[a-zA-Z0-9])$|^[0-9a-fA-F:.]+$';

const name = Type.Union(
  ['mailgun', 'mandrill', 'sendgrid', 'resend', 'ses', 'sparkpost', 'smtp', 'azure_cs', 'ms365', 'custom'].map((n) => Type.Literal(n)),
  { description: 'Name of the email provider; Gatehouse delivers through smtp only.' },
);

const credentials = Type.Object(
  {
    smtp_host: Type.Optional(Type.String({ minLength: 1, maxLength: 253, pattern: HOST_PATTERN })),
    smtp_port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    smtp_user: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    smtp_pass: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

const fromAddress = Type.String({ minLength: 3, maxLength: 320, description: 'Email address to use as "from" when no other address is specified.' });
const settings = Type.Union([Type.Object({}, { additionalProperties: true, maxProperties: 20 }), Type.Null()]);

export const CreateEmailProviderBody = Type.Object(
  { name, enabled: Type.Optional(Type.Boolean()), default_from_address: Type.Optional(fromAddress), credentials, settings: Type.Optional(settings) },
  { additionalProperties: false },
);

export const UpdateEmailProviderBody = Type.Object(
  {
    name: Type.Optional(name),
    enabled: Type.Optional(Type.Boolean()),
    default_from_address: Type.Optional(fromAddress),
    credentials: Type.Optional(credentials),
    settings: Type.Optional(settings),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** Members optional: `fields` may leave any out. */
export const EmailProviderResponse = Type.Object(
  {
    name: Type.Optional(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
    default_from_address: Type.Optional(Type.String()),
    credentials: Type.Optional(Type.Object(
      { smtp_host: Type.Optional(Type.String()), smtp_port: Type.Optional(Type.Integer()), smtp_user: Type.Optional(Type.String()) },
      { additionalProperties: false },
    )),
    settings: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

export const EmailProviderQuery = Type.Object(FieldsQuery, { additionalProperties: true });
