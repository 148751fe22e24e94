/**
 * Client grant schemas, from the service's OpenAPI document
 * (`CreateClientGrantRequestContent`, `UpdateClientGrantRequestContent`,
 * `ClientGrantResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableStringEnum, StringEnum } from '../../platform/http/schema-types.js';

const ScopeList = Type.Array(Type.String({ minLength: 1, maxLength: 280 }), { description: 'Scopes allowed for this client grant.' });
const DetailsTypes = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
  description: 'Types of authorization_details allowed for this client grant.',
});

export const CreateClientGrantBody = Type.Object(
  {
    client_id: Type.Optional(Type.String({ description: 'ID of the client.' })),
    audience: Type.String({ minLength: 1, description: 'The audience (API identifier) of this client grant' }),
    default_for: Type.Optional(StringEnum(['third_party_clients'], { description: 'Applies this client grant as the default for all clients in the specified group.' })),
    organization_usage: Type.Optional(
      StringEnum(['deny', 'allow', 'require'], {
        description: 'Defines whether organizations can be used with client credentials exchanges for this grant.',
      }),
    ),
    allow_any_organization: Type.Optional(Type.Boolean({ description: 'If enabled, any organization can be used with this grant.' })),
    scope: Type.Optional(ScopeList),
    subject_type: Type.Optional(StringEnum(['client', 'user'], { description: 'The type of application access the client grant allows.' })),
    authorization_details_types: Type.Optional(DetailsTypes),
    allow_all_scopes: Type.Optional(
      Type.Boolean({ description: 'If enabled, all scopes configured on the resource server are allowed for this grant.' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateClientGrantBody = Static<typeof CreateClientGrantBody>;

export const UpdateClientGrantBody = Type.Object(
  {
    scope: Type.Optional(Type.Unsafe<string[] | null>({ ...ScopeList, type: ['array', 'null'] })),
    organization_usage: Type.Optional(
      NullableStringEnum(['deny', 'allow', 'require'], { description: 'Controls how organizations may be used with this grant' }),
    ),
    allow_any_organization: Type.Optional(
      Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'Controls allowing any organization to be used with this grant' }),
    ),
    authorization_details_types: Type.Optional(DetailsTypes),
    allow_all_scopes: Type.Optional(
      Type.Unsafe<boolean | null>({
        type: ['boolean', 'null'],
        description: 'If enabled, all scopes configured on the resource server are allowed for this grant.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateClientGrantBody = Static<typeof UpdateClientGrantBody>;

export const ClientGrantResponse = Type.Object(
  {
    id: Type.String(),
    client_id: Type.Optional(Type.String()),
    audience: Type.String(),
    scope: Type.Array(Type.String()),
    organization_usage: Type.Optional(Type.String()),
    allow_any_organization: Type.Optional(Type.Boolean()),
    is_system: Type.Boolean(),
    subject_type: Type.Optional(Type.String()),
    authorization_details_types: Type.Optional(Type.Array(Type.String())),
    allow_all_scopes: Type.Optional(Type.Boolean()),
    default_for: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'ID of the client grant.' }) });
