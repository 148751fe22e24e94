/**
 * Schemas of an organization's invitations, from the service's OpenAPI
 * document (`CreateOrganizationInvitationRequestContent`,
 * `OrganizationInvitation`, `OrganizationInvitationInviter`,
 * `OrganizationInvitationInvitee`). Bounds the document does not give:
 * the invitee's email at most 320 characters, ids at most 64, at most 50
 * roles, 1 to 50 characters of `invitation_id`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FreeObject } from '../../../platform/http/schema-types.js';
import { MAX_ITEMS, RoleIdItem } from '../../rbac/schema.js';

/** The document's maximum `ttl_sec`: 30 days. */
export const MAX_TTL_SEC = 2_592_000;
/** `ttl_sec` absent or 0: 7 days. */
export const DEFAULT_TTL_SEC = 604_800;

const Inviter = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 300, description: "The inviter's name." }) },
  { additionalProperties: false },
);
const Invitee = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 320, description: "The invitee's email." }) },
  { additionalProperties: false },
);

export const CreateInvitationBody = Type.Object(
  {
    inviter: Inviter,
    invitee: Invitee,
    client_id: Type.String({ minLength: 1, maxLength: 64, description: "Auth0 client ID. Used to resolve the application's login initiation endpoint." }),
    connection_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The id of the connection to force invitee to authenticate with.' })),
    app_metadata: Type.Optional(FreeObject({ description: "Data related to the user that does affect the application's core functionality." })),
    user_metadata: Type.Optional(FreeObject({ description: "Data related to the user that does not affect the application's core functionality." })),
    ttl_sec: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TTL_SEC,
        description:
          'Number of seconds for which the invitation is valid before expiration. If unspecified or set to 0, this value defaults to 604800 seconds (7 days). Max value: 2592000 seconds (30 days).',
      }),
    ),
    roles: Type.Optional(Type.Array(RoleIdItem, { minItems: 1, maxItems: MAX_ITEMS, description: 'List of roles IDs to associated with the user.' })),
    send_invitation_email: Type.Optional(
      Type.Boolean({ description: 'Whether the user will receive an invitation email (true) or no email (false), true by default' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateInvitationBody = Static<typeof CreateInvitationBody>;

/** Members in the order the document lists them. */
export const InvitationResponse = Type.Object(
  {
    id: Type.Optional(Type.String()),
    organization_id: Type.Optional(Type.String()),
    inviter: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: false })),
    invitee: Type.Optional(Type.Object({ email: Type.String() }, { additionalProperties: false })),
    invitation_url: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    expires_at: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    connection_id: Type.Optional(Type.String()),
    app_metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    user_metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    roles: Type.Optional(Type.Array(Type.String())),
    ticket_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const InvitationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' }),
  invitation_id: Type.String({ minLength: 1, maxLength: 50, description: 'The id of the user invitation.' }),
});
