/**
 * Refresh-token schemas of the Management API, from the service's OpenAPI
 * document (`RefreshTokenResponseContent`, `UpdateRefreshTokenRequestContent`,
 * `RevokeRefreshTokensRequestContent`, the query of GET /refresh-tokens): the
 * members Gatehouse knows. A refresh token's `id` is its family's (the
 * `rtf_…` id kept by every rotation), so an id outlives rotations as the
 * service's does. `device` is left out: Gatehouse records no addresses or
 * user agents with its tokens.
 */
import { Type } from '@sinclair/typebox';
import { FieldsQuery } from '../fields.js';
import { CheckpointQuery } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

/**
 * `refresh_token_metadata` / `session_metadata`: at most 25 members, string
 * values of at most 255 characters (names too, Gatehouse's bound); null or {}
 * removes it.
 */
export const Metadata = (description: string) =>
  Type.Union([Type.Record(Type.String(), Type.String({ maxLength: 255 }), { maxProperties: 25, propertyNames: { maxLength: 255 } }), Type.Null()], { description });

const DateOrNull = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const RefreshTokenResponse = Type.Object(
  {
    id: Type.String({ description: 'The ID of the refresh token' }),
    user_id: Type.String({ description: 'ID of the user which can be used when interacting with other APIs.' }),
    created_at: DateOrNull('The date and time when the refresh token was created'),
    idle_expires_at: DateOrNull('When the token expires if it is not used before (null: no idle expiry)'),
    expires_at: DateOrNull('When the token expires (null: no absolute expiry)'),
    client_id: Type.String({ description: 'ID of the client application granted with this refresh token' }),
    session_id: Type.Union([Type.String(), Type.Null()], { description: 'ID associated with the session tied to this refresh token' }),
    rotating: Type.Boolean({ description: 'True if the token is a rotating refresh token' }),
    resource_servers: Type.Array(
      Type.Object({ audience: Type.String({ description: 'Resource server ID' }), scopes: Type.String({ description: 'List of scopes for the refresh token' }) }, { additionalProperties: false }),
      { description: 'A list of the resource server IDs associated to this refresh-token and their granted scopes' },
    ),
    refresh_token_metadata: Type.Optional(Metadata('Metadata associated with the refresh token')),
    last_exchanged_at: DateOrNull('The date and time when the refresh token was last exchanged'),
  },
  { additionalProperties: false },
);

export const RefreshTokenIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the refresh token' }),
});

export const UserIdParams = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the user' }),
});

/** GET /refresh-tokens: `user_id` is required (the document's 400 "Missing required 'user_id' parameter"). */
export const ListQuery = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 512, description: 'ID of the user whose refresh tokens to retrieve' }),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Filter results by client ID' })),
    ...CheckpointQuery,
    ...FieldsQuery,
  },
  { additionalProperties: true },
);

export const UserListQuery = Type.Object({ ...CheckpointQuery, include_totals: Type.Optional(Type.Boolean()) }, { additionalProperties: true });

export const UpdateBody = Type.Object(
  { refresh_token_metadata: Metadata('Metadata associated with the refresh token. Pass null or {} to remove all metadata') },
  { additionalProperties: false, minProperties: 1 },
);

/** The four combinations the document allows are checked by the service (see RefreshTokenService.revoke). */
export const RevokeBody = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 30 }), { minItems: 1, maxItems: 100, description: 'Array of refresh token IDs to revoke. Limited to 100 at a time' }),
    ),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'Revoke all refresh tokens for this user' })),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Revoke refresh tokens for this client' })),
    audience: Type.Optional(Type.String({ minLength: 1, maxLength: 600, description: 'Resource server identifier (audience) to scope the revocation' })),
  },
  { additionalProperties: false },
);
