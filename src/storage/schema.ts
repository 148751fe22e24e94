/**
 * The database as Kysely sees it: each table and the row type the domain
 * declares for it beside its store (src/domain/<entity>/rows.ts), with JSON columns as the text the
 * database holds (./json-columns.ts). Booleans are stored as integers (0/1);
 * timestamps are ISO-8601 text in UTC, which sorts correctly.
 */
import type { DirectoryUserRow } from '../domain/directory-provisioning/rows.js';
import type { ActionBindingRow } from '../domain/actions/rows.js';
import type { TokenExchangeProfileRow } from '../domain/token-exchange-profiles/rows.js';
import type { AuthorizationCodeRow } from '../domain/authorization-codes/rows.js';
import type { BackchannelAuthRequestRow } from '../domain/backchannel-authentication/rows.js';
import type { BackchannelLogoutDeliveryRow, SessionClientRow } from '../domain/backchannel-logout/rows.js';
import type { ClientCredentialRow } from '../domain/client-credentials/rows.js';
import type { ClientCountRow } from '../domain/clients/rows.js';
import type { ConnectionClientRow } from '../domain/connections/rows.js';
import type { DeviceCodeRow } from '../domain/device-codes/rows.js';
import type { EmailTemplateRow } from '../domain/email/rows.js';
import type { GroupMembershipRow, GroupRoleRow, GroupRow, OrganizationGroupRoleRow } from '../domain/groups/rows.js';
import type { GuardianDuoRow } from '../domain/guardian/duo.js';
import type { CaptchaSettingsRow } from '../domain/attack-protection/captcha.js';
import type { GuardianFactorRow, GuardianPolicyRow, GuardianPushNotificationRow, GuardianSmsRow } from '../domain/guardian/rows.js';
import type { JobFilePartRow, JobFileRow } from '../domain/jobs/rows.js';
import type { MfaAuthenticatorRow, MfaChallengeRow, MfaFailureRow } from '../domain/mfa/rows.js';
import type { OneTimeUseRow } from '../domain/one-time-use/rows.js';
import type { UpstreamTokenSetRow } from '../domain/upstream-tokens/rows.js';
import type { OrganizationClientGrantRow, OrganizationConnectionRow, OrganizationDiscoveryDomainRow, OrganizationMemberRoleRow, OrganizationMemberRow } from '../domain/organizations/rows.js';
import type { PasswordlessCodeRow } from '../domain/passwordless/rows.js';
import type { RolePermissionRow, UserPermissionRow, UserRoleRow } from '../domain/rbac/rows.js';
import type { RefreshTokenRow } from '../domain/refresh-tokens/rows.js';
import type { RoleRow } from '../domain/roles/rows.js';
import type { SamlpParticipantRow } from '../domain/samlp-sessions/rows.js';
import type { SessionRow } from '../domain/sessions/rows.js';
import type { KnownDeviceRow } from '../domain/risk-assessments/rows.js';
import type { TicketRow } from '../domain/tickets/rows.js';
import type { DeviceCredentialRow } from '../domain/device-credentials/rows.js';
import type { EncryptionKeyRow } from '../domain/encryption/rows.js';
import type { Stored } from './json-columns.js';

import type { ConnectionKeyRow } from '../domain/connections/keys.js';

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
  SamlpParticipantRow,
  SessionRow,
  SigningKeyRow,
  TenantRow,
  TicketRow,
  UserPermissionRow,
  UserRoleRow,
  UserRow,
} from '../domain/rows.js';

export interface Database {
  tenants: Stored<'tenants'>;
  signing_keys: Stored<'signing_keys'>;
  clients: Stored<'clients'>;
  resource_servers: Stored<'resource_servers'>;
  client_grants: Stored<'client_grants'>;
  client_counts: ClientCountRow;
  organizations: Stored<'organizations'>;
  organization_client_grants: OrganizationClientGrantRow;
  organization_members: OrganizationMemberRow;
  organization_member_roles: OrganizationMemberRoleRow;
  organization_connections: OrganizationConnectionRow;
  organization_invitations: Stored<'organization_invitations'>;
  organization_discovery_domains: OrganizationDiscoveryDomainRow;
  email_providers: Stored<'email_providers'>;
  email_templates: EmailTemplateRow;
  roles: RoleRow;
  groups: GroupRow;
  group_roles: GroupRoleRow;
  organization_group_roles: OrganizationGroupRoleRow;
  guardian_push_notification: GuardianPushNotificationRow;
  connections: Stored<'connections'>;
  connection_clients: ConnectionClientRow;
  users: Stored<'users'>;
  tickets: TicketRow;
  device_credentials: DeviceCredentialRow;
  known_devices: KnownDeviceRow;
  login_risk_assessments: Stored<'login_risk_assessments'>;
  mfa_remember_epochs: { tenant_id: string; user_id: string; epoch: number; updated_at: string };
  /** `metadata` (migration 0130): the family's `refresh_token_metadata` as JSON text, read and written by its store only. */
  refresh_tokens: RefreshTokenRow & { metadata: string | null };
  /** `logout_notified_at` (migration 0042): when the session's end was queued for back-channel logout. */
  sessions: SessionRow & { logout_notified_at: string | null; metadata: string | null };
  session_clients: SessionClientRow;
  backchannel_logout_deliveries: BackchannelLogoutDeliveryRow;
  backchannel_auth_requests: BackchannelAuthRequestRow;
  jobs: Stored<'jobs'>;
  job_files: JobFileRow;
  job_file_parts: JobFilePartRow;
  job_errors: Stored<'job_errors'>;
  tenant_logs: Stored<'tenant_logs'>;
  log_streams: Stored<'log_streams'>;
  event_streams: Stored<'event_streams'>;
  event_deliveries: Stored<'event_deliveries'>;
  tenant_events: Stored<'tenant_events'>;
  tenant_event_counters: { tenant_id: string; seq: number };
  network_acls: Stored<'network_acls'>;
  rate_limit_policies: Stored<'rate_limit_policies'>;
  guardian_duo: GuardianDuoRow;
  custom_signing_keys: { tenant_id: string; jwks: string; updated_at: string };
  encryption_keys: EncryptionKeyRow;
  connection_keys: ConnectionKeyRow;
  authorization_requests: Stored<'authorization_requests'>;
  pushed_authorization_requests: Stored<'pushed_authorization_requests'>;
  custom_domains: Stored<'custom_domains'>;
  ui_settings: Stored<'ui_settings'>;
  scim_configurations: Stored<'scim_configurations'>;
  scim_tokens: Stored<'scim_tokens'>;
  scim_users: Stored<'scim_users'>;
  directory_provisionings: Stored<'directory_provisionings'>;
  directory_synchronized_groups: { tenant_id: string; connection_id: string; group_id: string };
  directory_users: DirectoryUserRow;
  self_service_profiles: Stored<'self_service_profiles'>;
  sso_tickets: Stored<'sso_tickets'>;
  authorization_codes: AuthorizationCodeRow;
  client_credentials: ClientCredentialRow;
  one_time_uses: OneTimeUseRow;
  upstream_token_sets: UpstreamTokenSetRow;
  samlp_session_participants: SamlpParticipantRow;
  guardian_factors: GuardianFactorRow;
  guardian_policies: GuardianPolicyRow;
  mfa_authenticators: MfaAuthenticatorRow;
  mfa_challenges: MfaChallengeRow;
  mfa_failures: MfaFailureRow;
  passwordless_codes: PasswordlessCodeRow;
  guardian_sms: GuardianSmsRow;
  captcha_settings: CaptchaSettingsRow;
  device_codes: DeviceCodeRow;
  user_grants: Stored<'user_grants'>;
  role_permissions: RolePermissionRow;
  user_roles: UserRoleRow;
  user_permissions: UserPermissionRow;
  group_members: GroupMembershipRow;
  actions: Stored<'actions'>;
  action_versions: Stored<'action_versions'>;
  action_bindings: ActionBindingRow;
  action_executions: Stored<'action_executions'>;
  action_modules: Stored<'action_modules'>;
  action_module_versions: Stored<'action_module_versions'>;
  token_exchange_profiles: TokenExchangeProfileRow;
  connection_profiles: Stored<'connection_profiles'>;
  user_attribute_profiles: Stored<'user_attribute_profiles'>;
}
