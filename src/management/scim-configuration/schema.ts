/**
 * `/connections/{id}/scim-configuration` and its tokens, from the service's
 * document (`GetScimConfigurationResponseContent`, `CreateScimTokenRequestContent` …).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../lists.js';

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the connection' }) });
export const TokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the connection' }),
  tokenId: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the token' }),
});

export const ScimMappingItem = Type.Object(
  {
    auth0: Type.String({ minLength: 1, maxLength: 300, description: 'The field location in the auth0 schema' }),
    scim: Type.String({ minLength: 1, maxLength: 300, description: 'The field location in the SCIM schema' }),
  },
  { additionalProperties: false },
);

const Mapping = Type.Array(ScimMappingItem, { maxItems: 100, description: 'The mapping between auth0 and SCIM' });
/** Gatehouse's extension: what a directory's DELETE /Users/{id} does (src/domain/scim/rows.ts). */
const Deprovisioning = Type.Union([Type.Literal('delete'), Type.Literal('block')], {
  description: 'What a DELETE /Users/{id} of the SCIM client does: delete the user (the default) or block them',
});
const UserIdAttribute = Type.String({ minLength: 1, maxLength: 300, description: 'User ID attribute for generating unique user ids' });

export const CreateScimConfigurationBody = Type.Union([
  Type.Object({ user_id_attribute: Type.Optional(UserIdAttribute), mapping: Type.Optional(Mapping), deprovisioning: Type.Optional(Deprovisioning) }, { additionalProperties: false }),
  Type.Null(),
]);
export type CreateScimConfigurationBody = Static<typeof CreateScimConfigurationBody>;

export const UpdateScimConfigurationBody = Type.Object(
  { user_id_attribute: UserIdAttribute, mapping: Mapping, deprovisioning: Type.Optional(Deprovisioning) },
  { additionalProperties: false },
);
export type UpdateScimConfigurationBody = Static<typeof UpdateScimConfigurationBody>;

export const ScimConfigurationResponse = Type.Object({
  connection_id: Type.String(),
  connection_name: Type.String(),
  strategy: Type.String(),
  tenant_name: Type.String(),
  user_id_attribute: Type.String(),
  mapping: Type.Array(ScimMappingItem),
  deprovisioning: Deprovisioning,
  created_at: Type.String({ format: 'date-time' }),
  updated_on: Type.String({ format: 'date-time' }),
});
export type ScimConfiguration = Static<typeof ScimConfigurationResponse>;

export const ScimConfigurationListQuery = Type.Object({ from: CheckpointQuery.from, take: CheckpointQuery.take }, { additionalProperties: true });
export const ScimConfigurationListResponse = Type.Object({ scim_configurations: Type.Array(ScimConfigurationResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false });

export const DefaultMappingResponse = Type.Object({ mapping: Type.Array(ScimMappingItem) });

export const CreateScimTokenBody = Type.Object(
  {
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 10, description: 'The scopes of the scim token' })),
    token_lifetime: Type.Optional(Type.Union([Type.Integer({ description: 'Lifetime of the token in seconds. Must be greater than 900' }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateScimTokenBody = Static<typeof CreateScimTokenBody>;

const TokenMembers = {
  token_id: Type.String(),
  scopes: Type.Array(Type.String()),
  created_at: Type.String(),
  valid_until: Type.Optional(Type.String()),
};

export const CreateScimTokenResponse = Type.Object({ ...TokenMembers, token: Type.String({ description: "The scim client's token, shown only here" }) });
export const ScimTokenItem = Type.Object({ ...TokenMembers, last_used_at: Type.Optional(Type.String()) });
export const ScimTokenList = Type.Array(ScimTokenItem);
export type ScimTokenItem = Static<typeof ScimTokenItem>;
