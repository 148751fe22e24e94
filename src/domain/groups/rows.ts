/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
export interface GroupRow {
  tenant_id: string;
  id: string;
  name: string;
  description: string | null;
  external_id: string | null;
  connection_id: string | null;
  organization_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface GroupRoleRow {
  tenant_id: string;
  group_id: string;
  role_id: string;
  created_at: string;
}

/** Users who are members of groups (migration 0011). */
export interface GroupMembershipRow {
  tenant_id: string;
  group_id: string;
  user_id: string;
  created_at: string;
}

/** A role a group holds in one organization (migration 0220): its members hold it in that organization's logins. */
export interface OrganizationGroupRoleRow {
  tenant_id: string;
  organization_id: string;
  group_id: string;
  role_id: string;
  created_at: string;
}
