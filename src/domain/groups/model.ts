/** Groups, as stored and as the Management API returns them (the service's `Group` schema). */
import type { GroupRow } from '../rows.js';
import { randomString } from '../../platform/crypto/ids.js';

export type { GroupRow } from '../rows.js';

export interface Group {
  id: string;
  name: string;
  description?: string;
  external_id?: string;
  connection_id?: string;
  organization_id?: string;
  /** The tenant's name. */
  tenant_name: string;
  created_at: string;
  updated_at: string;
}

/** Base58: digits and letters without 0, O, I and l. */
export const GROUP_ID_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * `grp_` + 14 to 22 base58 characters (the service's `^grp_[1-9a-km-zA-HJ-NP-Z]{14,22}$`).
 * Gatehouse generates the longest form, 26 characters (about 129 random bits);
 * ids of every allowed length are accepted, for groups imported from elsewhere.
 */
export function newGroupId(): string {
  return `grp_${randomString(22, GROUP_ID_ALPHABET)}`;
}

/** Unset optional members are left out rather than sent as null (the schema types them as strings). */
export function groupFromRow(row: GroupRow, tenantName: string): Group {
  return {
    id: row.id,
    name: row.name,
    ...(row.description !== null && { description: row.description }),
    ...(row.external_id !== null && { external_id: row.external_id }),
    ...(row.connection_id !== null && { connection_id: row.connection_id }),
    ...(row.organization_id !== null && { organization_id: row.organization_id }),
    tenant_name: tenantName,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
