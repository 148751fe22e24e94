/**
 * The database as Kysely sees it: each table and the row type the domain
 * declares for it (src/domain/rows.ts). Booleans are stored as integers (0/1)
 * and JSON as text so that SQLite and PostgreSQL hold the same values;
 * timestamps are ISO-8601 text in UTC, which sorts correctly.
 */
import type {
  AuthorizationCodeRow,
  AuthorizationRequestRow,
  ClientCountRow,
  ClientCredentialRow,
  ClientGrantRow,
  ClientRow,
  ConnectionClientRow,
  ConnectionRow,
  ConsentGrantRow,
  GroupMembershipRow,
  GroupRoleRow,
  GroupRow,
  GuardianPushNotificationRow,
  OrganizationClientGrantRow,
  OneTimeUseRow,
  OrganizationRow,
  RefreshTokenRow,
  ResourceServerRow,
  RolePermissionRow,
  RoleRow,
  SessionRow,
  SigningKeyRow,
  TenantRow,
  TicketRow,
  UserPermissionRow,
  UserRoleRow,
  UserRow,
} from '../domain/rows.js';
export type {
  AuthorizationCodeRow,
  AuthorizationRequestRow,
  ClientCountRow,
  ClientCredentialRow,
  ClientGrantRow,
  ClientRow,
  ConnectionClientRow,
  ConnectionRow,
  ConsentGrantRow,
  GroupMembershipRow,
  GroupRoleRow,
  GroupRow,
  GuardianPushNotificationRow,
  OrganizationClientGrantRow,
  OneTimeUseRow,
  OrganizationRow,
  RefreshTokenRow,
  ResourceServerRow,
  RolePermissionRow,
  RoleRow,
  SessionRow,
  SigningKeyRow,
  TenantRow,
  TicketRow,
  UserPermissionRow,
  UserRoleRow,
  UserRow,
} from '../domain/rows.js';

export interface Database {
  tenants: TenantRow;
  signing_keys: SigningKeyRow;
  clients: ClientRow;
  resource_servers: ResourceServerRow;
  client_grants: ClientGrantRow;
  client_counts: ClientCountRow;
  organizations: OrganizationRow;
  organization_client_grants: OrganizationClientGrantRow;
  roles: RoleRow;
  groups: GroupRow;
  group_roles: GroupRoleRow;
  guardian_push_notification: GuardianPushNotificationRow;
  connections: ConnectionRow;
  connection_clients: ConnectionClientRow;
  users: UserRow;
  tickets: TicketRow;
  refresh_tokens: RefreshTokenRow;
  sessions: SessionRow;
  authorization_requests: AuthorizationRequestRow;
  authorization_codes: AuthorizationCodeRow;
  client_credentials: ClientCredentialRow;
  one_time_uses: OneTimeUseRow;
  user_grants: ConsentGrantRow;
  role_permissions: RolePermissionRow;
  user_roles: UserRoleRow;
  user_permissions: UserPermissionRow;
  group_members: GroupMembershipRow;
}
