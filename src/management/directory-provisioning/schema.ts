/**
 * `/connections/{id}/directory-provisioning`, its synchronizations and
 * synchronized groups, and `/connections-directory-provisionings`, from the
 * service's document (`DirectoryProvisioning`, `CreateDirectoryProvisioningRequestContent`,
 * `ReplaceSynchronizedGroupsRequestContent` …).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../lists.js';

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the connection' }) });

export const DirectoryProvisioningMappingItem = Type.Object(
  {
    auth0: Type.String({ minLength: 1, maxLength: 300, description: 'The field location in the Auth0 schema' }),
    idp: Type.String({ minLength: 1, maxLength: 300, description: 'The field location in the IDP schema' }),
  },
  { additionalProperties: false },
);

const Mapping = Type.Array(DirectoryProvisioningMappingItem, { minItems: 1, maxItems: 100, description: 'The mapping between Auth0 and IDP user attributes' });
const SynchronizeGroups = Type.Union([Type.Literal('all'), Type.Literal('off'), Type.Literal('selected')], { description: 'Group synchronization configuration' });
const SynchronizeAutomatically = Type.Boolean({ description: 'Whether periodic automatic synchronization is enabled' });

const Settings = {
  mapping: Type.Optional(Mapping),
  synchronize_automatically: Type.Optional(SynchronizeAutomatically),
  synchronize_groups: Type.Optional(SynchronizeGroups),
};

export const CreateDirectoryProvisioningBody = Type.Union([Type.Object(Settings, { additionalProperties: false }), Type.Null()]);
export type CreateDirectoryProvisioningBody = Static<typeof CreateDirectoryProvisioningBody>;
export const UpdateDirectoryProvisioningBody = Type.Union([Type.Object(Settings, { additionalProperties: false }), Type.Null()]);
export type UpdateDirectoryProvisioningBody = Static<typeof UpdateDirectoryProvisioningBody>;

export const DirectoryProvisioningResponse = Type.Object(
  {
    connection_id: Type.String(),
    connection_name: Type.String(),
    strategy: Type.String(),
    mapping: Type.Array(DirectoryProvisioningMappingItem),
    synchronize_automatically: Type.Boolean(),
    synchronize_groups: Type.Optional(SynchronizeGroups),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    last_synchronization_at: Type.Optional(Type.String({ format: 'date-time' })),
    last_synchronization_status: Type.Optional(Type.String()),
    last_synchronization_error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type DirectoryProvisioning = Static<typeof DirectoryProvisioningResponse>;

export const DirectoryProvisioningListQuery = Type.Object({ from: CheckpointQuery.from, take: CheckpointQuery.take }, { additionalProperties: true });
export const DirectoryProvisioningListResponse = Type.Object(
  { directory_provisionings: Type.Array(DirectoryProvisioningResponse), next: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const DefaultMappingResponse = Type.Object({ mapping: Type.Array(DirectoryProvisioningMappingItem) }, { additionalProperties: false });

export const SynchronizationResponse = Type.Object(
  { connection_id: Type.String(), synchronization_id: Type.String(), status: Type.String() },
  { additionalProperties: false },
);
export type Synchronization = Static<typeof SynchronizationResponse>;

export const SynchronizedGroup = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$', description: 'Google Workspace Directory group ID.' }) },
  { additionalProperties: false },
);
export const SynchronizedGroupsQuery = Type.Object({ from: CheckpointQuery.from, take: CheckpointQuery.take }, { additionalProperties: true });
export const SynchronizedGroupsResponse = Type.Object({ groups: Type.Array(SynchronizedGroup), next: Type.Optional(Type.String()) }, { additionalProperties: false });
export const ReplaceSynchronizedGroupsBody = Type.Object(
  { groups: Type.Array(SynchronizedGroup, { maxItems: 1000, description: 'Array of Google Workspace Directory group objects to synchronize.' }) },
  { additionalProperties: false },
);
export type ReplaceSynchronizedGroupsBody = Static<typeof ReplaceSynchronizedGroupsBody>;
