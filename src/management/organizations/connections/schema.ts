/**
 * Schemas of /organizations/{id}/connections, the service's newer view of the
 * connections of an organization (its OpenAPI document's
 * `OrganizationAllConnectionPost`, `CreateOrganizationAllConnectionRequestContent`,
 * `UpdateOrganizationAllConnectionRequestContent`): the same enabled
 * connections as /enabled_connections, with `is_enabled`. Gatehouse keeps no
 * disabled organization connections, so `is_enabled` is always true and
 * setting it false is refused; `organization_connection_name` and
 * `organization_access_level` are not kept and are refused as unknown
 * members.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AddConnectionBody, OrganizationConnectionResponse, UpdateConnectionBody } from '../enabled-connections/schema.js';
import { OffsetQuery } from '../../lists.js';

const isEnabled = Type.Optional(Type.Boolean({ description: 'Whether the connection is enabled for the organization.' }));

export const AddAllConnectionBody = Type.Object({ ...AddConnectionBody.properties, is_enabled: isEnabled }, { additionalProperties: false });
export type AddAllConnectionBody = Static<typeof AddAllConnectionBody>;

export const UpdateAllConnectionBody = Type.Object({ ...UpdateConnectionBody.properties, is_enabled: isEnabled }, { additionalProperties: false });
export type UpdateAllConnectionBody = Static<typeof UpdateAllConnectionBody>;

const { connection_id, connection, ...settings } = OrganizationConnectionResponse.properties;

/** Members in the order the document lists them. */
export const OrganizationAllConnectionResponse = Type.Object({ ...settings, is_enabled: Type.Boolean(), connection_id, connection }, { additionalProperties: false });

export const AllConnectionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' }),
  connection_id: Type.String({ minLength: 1, maxLength: 50, description: 'Connection identifier' }),
});

export const ListAllConnectionsQuery = Type.Object(
  { ...OffsetQuery, is_enabled: Type.Optional(Type.Boolean({ description: 'Filter connections by enabled status.' })) },
  { additionalProperties: true },
);
export type ListAllConnectionsQuery = Static<typeof ListAllConnectionsQuery>;
