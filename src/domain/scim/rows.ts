/**
 * SCIM 2.0 inbound provisioning (RFC 7643/7644) per enterprise connection,
 * as stored (migration 0140): the connection's configuration, its bearer
 * tokens (kept as SHA-256 only) and the SCIM representation of each user it
 * provisioned.
 */
import type { JsonObject } from '../json.js';

/** One pair of the mapping between the user profile and SCIM (`{auth0, scim}`, the service's `ScimMappingItem`). */
export interface ScimMappingItem {
  auth0: string;
  scim: string;
}

/** What deprovisioning (a directory's DELETE /Users/{id}) does: `delete` the user (the default) or `block` them. */
export const SCIM_DEPROVISIONING = ['delete', 'block'] as const;
export type ScimDeprovisioning = (typeof SCIM_DEPROVISIONING)[number];

/** `/connections/{id}/scim-configuration`. */
export interface ScimConfigurationRow {
  tenant_id: string;
  connection_id: string;
  /** The SCIM attribute whose value is the user's id at the connection (`externalId` by default). */
  user_id_attribute: string;
  mapping: ScimMappingItem[];
  /** What the directory's DELETE /Users/{id} does to the user (migration 0220): deletes them, or blocks them and ends their sessions. */
  deprovisioning: ScimDeprovisioning;
  created_at: string;
  updated_on: string;
}

/** A bearer token of a connection's SCIM endpoint. */
export interface ScimTokenRow {
  tenant_id: string;
  id: string;
  connection_id: string;
  /** base64url SHA-256 of the token (src/domain/secrets.ts); the token itself is shown once. */
  token_hash: string;
  /** Of SCIM_TOKEN_SCOPES. */
  scopes: string[];
  created_at: string;
  valid_until: string | null;
  last_used_at: string | null;
}

/** What a connection's SCIM client last said a user is (without `id`, `meta` and `active`, which come from the user). */
export interface ScimUserRow {
  tenant_id: string;
  user_id: string;
  connection_id: string;
  external_id: string | null;
  /** Lower-cased `userName`: unique per connection (RFC 7643 §4.1.1: case-insensitive). */
  user_name_lower: string;
  resource: JsonObject;
  created_at: string;
  updated_at: string;
}
