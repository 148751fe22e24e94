/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A role's permissions (migration 0011): (API identifier, permission name) pairs. */
export interface RolePermissionRow {
  tenant_id: string;
  role_id: string;
  resource_server_identifier: string;
  permission_name: string;
  created_at: string;
}

/** Roles assigned to users directly (migration 0011). */
export interface UserRoleRow {
  tenant_id: string;
  user_id: string;
  role_id: string;
  created_at: string;
}

/** Permissions assigned to users directly (migration 0011). */
export interface UserPermissionRow {
  tenant_id: string;
  user_id: string;
  resource_server_identifier: string;
  permission_name: string;
  created_at: string;
}
