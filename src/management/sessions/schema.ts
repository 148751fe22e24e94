/**
 * Schemas of SSO sessions in the Management API, from the service's OpenAPI
 * document (`SessionResponseContent`, `GetSessionResponseContent`,
 * `ListUserSessionsPaginatedResponseContent`): the members Gatehouse knows.
 * A session's `id` is the `sid` of the ID tokens it issued.
 */
import { Type } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';
import { Metadata } from '../refresh-tokens/schema.js';

export const SessionResponse = Type.Object(
  {
    id: Type.String({ description: 'The ID of the session' }),
    user_id: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    authenticated_at: Type.String(),
    idle_expires_at: Type.String({ description: 'When the session ends if it is not used before (the tenant\'s idle session lifetime)' }),
    expires_at: Type.String(),
    last_interacted_at: Type.String({ description: 'When the session last answered a login' }),
    clients: Type.Array(Type.Object({ client_id: Type.String() }, { additionalProperties: false })),
    authentication: Type.Object(
      { methods: Type.Array(Type.Object({ name: Type.String(), timestamp: Type.String() }, { additionalProperties: false })) },
      { additionalProperties: false },
    ),
    session_metadata: Type.Optional(Metadata('Metadata associated with the session')),
  },
  { additionalProperties: false },
);

export const UpdateSessionBody = Type.Object(
  { session_metadata: Metadata('Metadata associated with the session. Pass null or {} to remove all session_metadata') },
  { additionalProperties: false, minProperties: 1 },
);

/** POST /sessions/{id}/revoke: the document bounds the id to 50 characters. */
export const RevokeSessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 50, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the session to revoke' }) });

export const RevokeAccessParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the user' }) });

export const RevokeAccessBody = Type.Object(
  {
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'ID of the session to revoke' })),
    preserve_refresh_tokens: Type.Optional(Type.Boolean({ description: 'Whether to preserve the refresh tokens associated with the session' })),
  },
  { additionalProperties: false },
);

export const SessionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the session' }) });

export const UserIdParams = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the user to get sessions for' }),
});
