/**
 * Ticket shapes, from the service's OpenAPI document
 * (`ChangePasswordTicketRequestContent`, `VerifyEmailTicketRequestContent`,
 * their responses). `ttl_sec` is bounded to 30 days here (the document sets
 * no maximum); `result_url` must be an http(s) URL.
 */
import { Type } from '@sinclair/typebox';

/** The longest ticket Gatehouse makes. */
export const MAX_TICKET_TTL = 30 * 24 * 3600;
/** `ttl_sec` absent or 0: the document's default, 5 days. */
export const DEFAULT_TICKET_TTL = 432_000;

const resultUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'URL the user will be redirected to in the classic Universal Login experience once the ticket is used.' });
const ttl = Type.Integer({ minimum: 0, maximum: MAX_TICKET_TTL, description: 'Number of seconds for which the ticket is valid before expiration. If unspecified or set to 0, this value defaults to 432000 seconds (5 days).' });
const userId = Type.String({ minLength: 1, maxLength: 255, description: 'user_id of for whom the ticket should be created.' });
const clientId = Type.String({ minLength: 1, maxLength: 64, description: 'ID of the client (application).' });
const organizationId = Type.String({ minLength: 1, maxLength: 64, description: '(Optional) Organization ID – the ID of the Organization.' });

export const PasswordChangeTicketBody = Type.Object(
  {
    result_url: Type.Optional(resultUrl),
    user_id: Type.Optional(userId),
    client_id: Type.Optional(clientId),
    organization_id: Type.Optional(organizationId),
    connection_id: Type.Optional(Type.String({ pattern: '^con_[A-Za-z0-9]{16}$', description: 'ID of the connection. If provided, allows the user to be specified using email instead of user_id.' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 512, description: 'Email address of the user for whom the tickets should be created. Requires the connection_id parameter.' })),
    ttl_sec: Type.Optional(ttl),
    mark_email_as_verified: Type.Optional(Type.Boolean({ description: 'Whether to set the email_verified attribute to true (true) or whether it should not be updated (false).' })),
    includeEmailInRedirect: Type.Optional(Type.Boolean({ description: 'Whether to include the email address as part of the returnUrl in the reset_email (true), or not (false).' })),
  },
  { additionalProperties: false },
);

export const EmailVerificationTicketBody = Type.Object(
  {
    result_url: Type.Optional(resultUrl),
    user_id: userId,
    client_id: Type.Optional(clientId),
    organization_id: Type.Optional(organizationId),
    ttl_sec: Type.Optional(ttl),
    includeEmailInRedirect: Type.Optional(Type.Boolean({ description: 'Whether to include the email address as part of the returnUrl in the reset_email (true), or not (false).' })),
    identity: Type.Optional(
      Type.Object(
        { user_id: Type.String({ minLength: 1, maxLength: 255 }), provider: Type.String({ minLength: 1, maxLength: 64 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const TicketResponse = Type.Object({ ticket: Type.String({ description: 'URL representing the ticket.' }) }, { additionalProperties: false });
