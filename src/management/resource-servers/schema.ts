/**
 * Resource server (API) schemas, written once from the service's OpenAPI
 * document (`ResourceServer`, `CreateResourceServerRequestContent`,
 * `UpdateResourceServerRequestContent`); request validation, response
 * serialisation and the TypeScript types derive from them.
 */
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';
import { Type } from '@sinclair/typebox';
import { FreeObject, NullableArray, NullableFreeObject, NullableStringEnum, StringEnum } from '../../platform/http/schema-types.js';

const Scope = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 280, description: 'Value of this scope.' }),
    description: Type.Optional(Type.String({ maxLength: 500, description: 'User-friendly description of this scope.' })),
  },
  { additionalProperties: false },
);

const writable = {
  name: Type.String({
    maxLength: 200,
    pattern: '^[^<>]+$',
    description: 'Friendly name for this resource server. Can not contain `<` or `>` characters.',
  }),
  // The service's entity limit, scopes per API (src/domain/entity-limits.ts): one more is a payload validation error.
  scopes: Type.Array(Scope, { maxItems: ENTITY_LIMITS.scopesPerApi, description: 'List of permissions (scopes) that this API uses.' }),
  signing_alg: StringEnum(['RS256', 'HS256'], {
    description: 'Algorithm used to sign JWTs: RS256 (default, the tenant key) or HS256 (the signing secret).',
  }),
  signing_secret: Type.String({ minLength: 16, description: 'Secret used to sign tokens when using symmetric algorithms (HS256).' }),
  allow_offline_access: Type.Boolean({ description: 'Whether refresh tokens can be issued for this API (true) or not (false).' }),
  allow_online_access: Type.Boolean({ description: 'Whether Online Refresh Tokens can be issued for this API (true) or not (false).' }),
  allow_online_access_with_ephemeral_sessions: Type.Boolean({
    description: 'Whether Online Refresh Tokens can be issued even when sessions are configured as ephemeral.',
  }),
  token_lifetime: Type.Integer({
    minimum: 0,
    maximum: 2592000,
    description: 'Expiration value (in seconds) for access tokens issued for this API from the token endpoint.',
  }),
  // Not in the document's request bodies, but in every answer, and sent back
  // by the service's own deploy tool on update: the service takes it.
  token_lifetime_for_web: Type.Integer({
    minimum: 0,
    maximum: 2592000,
    description: 'Expiration value (in seconds) for access tokens issued for this API via Implicit or Hybrid Flows. Cannot be greater than the `token_lifetime` value.',
  }),
  token_dialect: StringEnum(['access_token', 'access_token_authz', 'rfc9068_profile', 'rfc9068_profile_authz'], {
    description: 'Dialect of issued access token.',
  }),
  skip_consent_for_verifiable_first_party_clients: Type.Boolean({
    description: 'Whether to skip user consent for applications flagged as first party (true) or not (false).',
  }),
  enforce_policies: Type.Boolean({ description: 'Whether to enforce authorization policies (true) or to ignore them (false).' }),
  token_encryption: NullableFreeObject({ description: 'Token encryption configuration.' }),
  consent_policy: NullableStringEnum(['transactional-authorization-with-mfa'], { description: 'Consent policy.' }),
  authorization_details: NullableArray({ description: 'Authorization details types.' }),
  proof_of_possession: NullableFreeObject({ description: 'Proof-of-Possession configuration for access tokens' }),
  subject_type_authorization: FreeObject({ description: 'Defines application access permission for a resource server' }),
  authorization_policy: NullableFreeObject({ description: 'Authorization policy.' }),
};

const { name, ...updatable } = writable;

export const CreateResourceServerBody = Type.Object(
  {
    name: Type.Optional(name),
    identifier: Type.String({
      minLength: 1,
      maxLength: 600,
      description: 'Unique identifier for the API used as the audience parameter on authorization calls. Can not be changed once set.',
    }),
    ...Object.fromEntries(Object.entries(updatable).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false },
);
/** The validated body of an update. */
export interface UpdateResourceServerBody {
  name?: string;
  scopes?: { value: string; description?: string }[];
  signing_alg?: 'RS256' | 'HS256';
  signing_secret?: string;
  allow_offline_access?: boolean;
  token_lifetime?: number;
  token_lifetime_for_web?: number;
  token_dialect?: 'access_token' | 'access_token_authz' | 'rfc9068_profile' | 'rfc9068_profile_authz';
  skip_consent_for_verifiable_first_party_clients?: boolean;
  enforce_policies?: boolean;
  /** Members kept as given in the `options` column (see OPTION_MEMBERS). */
  [option: string]: unknown;
}

export const UpdateResourceServerBody = Type.Object(
  Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, Type.Optional(v)])),
  { additionalProperties: false },
);
/** The validated body of a create. */
export interface CreateResourceServerBody extends UpdateResourceServerBody {
  identifier: string;
}

export const ResourceServerResponse = Type.Object(
  {
    id: Type.String({ description: 'ID of the API (resource server).' }),
    name: Type.String(),
    is_system: Type.Boolean({ description: 'Whether this is a system API (true) or a custom API (false).' }),
    identifier: Type.String(),
    scopes: Type.Array(Scope),
    signing_alg: Type.String(),
    signing_secret: Type.Optional(Type.String()),
    allow_offline_access: Type.Boolean(),
    skip_consent_for_verifiable_first_party_clients: Type.Boolean(),
    token_lifetime: Type.Integer(),
    token_lifetime_for_web: Type.Integer(),
    enforce_policies: Type.Boolean(),
    token_dialect: Type.String(),
    allow_online_access: Type.Optional(Type.Boolean()),
    allow_online_access_with_ephemeral_sessions: Type.Optional(Type.Boolean()),
    token_encryption: Type.Optional(NullableFreeObject()),
    consent_policy: Type.Optional(NullableStringEnum(['transactional-authorization-with-mfa'])),
    authorization_details: Type.Optional(NullableArray()),
    proof_of_possession: Type.Optional(NullableFreeObject()),
    subject_type_authorization: Type.Optional(FreeObject()),
    authorization_policy: Type.Optional(NullableFreeObject()),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({
  id: Type.String({ minLength: 1, description: 'ID or audience of the resource server.' }),
});
