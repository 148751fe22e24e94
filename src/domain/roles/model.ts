/** Roles (RBAC), as stored and as the Management API returns them (the service's `Role` schema). */
import type { RoleRow } from '../rows.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';

export type { RoleRow } from '../rows.js';

export interface Role {
  id: string;
  name: string;
  /** null when the role was created without one, as the service answers. */
  description: string | null;
}

/** `rol_` + 16 alphanumerics, 20 characters (management-api-wire-notes §3). */
export function newRoleId(): string {
  return newPrefixedId('rol', 16);
}

/** A role created without a description has none (null), which is what the service returns for it. */
export function roleFromRow(row: Pick<RoleRow, 'id' | 'name' | 'description'>): Role {
  return { id: row.id, name: row.name, description: row.description };
}
