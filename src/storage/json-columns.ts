/**
 * The tables' JSON columns, and the one place they are parsed and
 * serialised. The domain's rows (src/domain/<entity>/rows.ts) carry typed values; the
 * database holds JSON text (the same in SQLite and PostgreSQL). The stores
 * read through `fromStored` and write through `toStored`, for whole rows and
 * for the columns a query selects or changes.
 */
import type { AuthorizationCodeRow } from '../domain/authorization-codes/rows.js';
import type { ActionExecutionRow, ActionModuleRow, ActionModuleVersionRow, ActionRow, ActionVersionRow } from '../domain/actions/rows.js';
import type { AuthorizationRequestRow } from '../domain/authorize-transactions/rows.js';
import type { UiSettingRow } from '../domain/branding/rows.js';
import type { ClientGrantRow } from '../domain/client-grants/rows.js';
import type { ClientRow } from '../domain/clients/rows.js';
import type { ConnectionRow } from '../domain/connections/rows.js';
import type { ConsentGrantRow } from '../domain/consent-grants/rows.js';
import type { CustomDomainRow } from '../domain/custom-domains/rows.js';
import type { EmailProviderRow } from '../domain/email/rows.js';
import type { JobErrorRow, JobRow } from '../domain/jobs/rows.js';
import type { SigningKeyRow } from '../domain/keys/rows.js';
import type { LogStreamRow } from '../domain/log-streams/rows.js';
import type { EventDeliveryRow, EventStreamRow, TenantEventRow } from '../domain/event-streams/rows.js';
import type { NetworkAclRow } from '../domain/network-acls/rows.js';
import type { LoginRiskAssessmentRow } from '../domain/risk-assessments/rows.js';
import type { RateLimitPolicyRow } from '../domain/rate-limit-policies/rows.js';
import type { TenantLogRow } from '../domain/logs/rows.js';
import type { OrganizationInvitationRow, OrganizationRow } from '../domain/organizations/rows.js';
import type { PushedAuthorizationRequestRow } from '../domain/pushed-requests/rows.js';
import type { ResourceServerRow } from '../domain/resource-servers/rows.js';
import type { TenantRow } from '../domain/tenants/rows.js';
import type { UserRow } from '../domain/users/rows.js';
import type { DirectoryProvisioningRow } from '../domain/directory-provisioning/rows.js';
import type { ScimConfigurationRow, ScimTokenRow, ScimUserRow } from '../domain/scim/rows.js';
import type { SelfServiceProfileRow, SsoTicketRow } from '../domain/self-service/rows.js';
import type { ConnectionProfileRow } from '../domain/connection-profiles/rows.js';
import type { UserAttributeProfileRow } from '../domain/user-attribute-profiles/rows.js';

export const JSON_COLUMNS = {
  tenants: ['settings'],
  signing_keys: ['public_jwk'],
  clients: ['client_authentication_methods', 'grant_types', 'config'],
  organizations: ['branding', 'metadata'],
  resource_servers: ['scopes', 'options'],
  client_grants: ['scope', 'authorization_details_types'],
  connections: ['options', 'realms', 'metadata'],
  users: ['app_metadata', 'user_metadata'],
  user_grants: ['scope'],
  authorization_requests: ['params', 'completed_steps', 'action_suspension'],
  authorization_codes: ['action_changes'],
  pushed_authorization_requests: ['params'],
  custom_domains: ['domain_metadata'],
  organization_invitations: ['app_metadata', 'user_metadata', 'roles'],
  jobs: ['params', 'summary'],
  job_errors: ['user', 'errors'],
  tenant_logs: ['details'],
  log_streams: ['filters', 'sink'],
  email_providers: ['settings'],
  ui_settings: ['value'],
  actions: ['supported_triggers', 'dependencies', 'secrets', 'modules', 'build_errors'],
  action_versions: ['supported_triggers', 'dependencies', 'secrets', 'modules'],
  action_modules: ['dependencies', 'secrets'],
  action_module_versions: ['dependencies', 'secrets'],
  action_executions: ['results'],
  scim_configurations: ['mapping'],
  scim_tokens: ['scopes'],
  scim_users: ['resource'],
  directory_provisionings: ['mapping'],
  self_service_profiles: ['branding', 'allowed_strategies', 'user_attributes', 'custom_text'],
  sso_tickets: ['config'],
  network_acls: ['rule'],
  rate_limit_policies: ['configuration'],
  event_streams: ['subscriptions', 'destination'],
  event_deliveries: ['event', 'attempt_log'],
  connection_profiles: ['profile'],
  user_attribute_profiles: ['user_id', 'user_attributes'],
  tenant_events: ['event'],
  login_risk_assessments: ['assessment'],
} as const;

/** The domain row of each table with JSON columns. */
export interface JsonTableRows {
  tenants: TenantRow;
  signing_keys: SigningKeyRow;
  clients: ClientRow;
  organizations: OrganizationRow;
  resource_servers: ResourceServerRow;
  client_grants: ClientGrantRow;
  connections: ConnectionRow;
  users: UserRow;
  user_grants: ConsentGrantRow;
  authorization_requests: AuthorizationRequestRow;
  pushed_authorization_requests: PushedAuthorizationRequestRow;
  authorization_codes: AuthorizationCodeRow;
  custom_domains: CustomDomainRow;
  organization_invitations: OrganizationInvitationRow;
  jobs: JobRow;
  job_errors: JobErrorRow;
  tenant_logs: TenantLogRow;
  log_streams: LogStreamRow;
  email_providers: EmailProviderRow;
  ui_settings: UiSettingRow;
  actions: ActionRow;
  action_versions: ActionVersionRow;
  action_executions: ActionExecutionRow;
  action_modules: ActionModuleRow;
  action_module_versions: ActionModuleVersionRow;
  scim_configurations: ScimConfigurationRow;
  scim_tokens: ScimTokenRow;
  scim_users: ScimUserRow;
  directory_provisionings: DirectoryProvisioningRow;
  self_service_profiles: SelfServiceProfileRow;
  sso_tickets: SsoTicketRow;
  network_acls: NetworkAclRow;
  rate_limit_policies: RateLimitPolicyRow;
  event_streams: EventStreamRow;
  event_deliveries: EventDeliveryRow;
  connection_profiles: ConnectionProfileRow;
  user_attribute_profiles: UserAttributeProfileRow;
  tenant_events: TenantEventRow;
  login_risk_assessments: LoginRiskAssessmentRow;
}

export type JsonTable = keyof typeof JSON_COLUMNS;
type JsonColumn<T extends JsonTable> = (typeof JSON_COLUMNS)[T][number];

/** A table's row as the database holds it: its JSON columns as text. */
export type Stored<T extends JsonTable> = {
  [K in keyof JsonTableRows[T]]: K extends JsonColumn<T> ? (null extends JsonTableRows[T][K] ? string | null : string) : JsonTableRows[T][K];
};

type Parsed<T extends JsonTable, R> = { [K in keyof R]: K extends JsonColumn<T> & keyof JsonTableRows[T] ? JsonTableRows[T][K] : R[K] };
type Serialised<T extends JsonTable, R> = { [K in keyof R]: K extends JsonColumn<T> & keyof Stored<T> ? Stored<T>[K] : R[K] };

/** A row, or the columns of it a query selected, with its JSON columns parsed. */
export function fromStored<T extends JsonTable, R extends object>(table: T, row: R): Parsed<T, R> {
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const column of JSON_COLUMNS[table]) {
    const value = out[column];
    if (typeof value === 'string') out[column] = JSON.parse(value);
  }
  return out as Parsed<T, R>;
}

/** A row, or the columns of it a write sets, with its JSON columns serialised. */
export function toStored<T extends JsonTable, R extends object>(table: T, row: R): Serialised<T, R> {
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const column of JSON_COLUMNS[table]) {
    const value = out[column];
    if (value !== undefined && value !== null) out[column] = JSON.stringify(value);
  }
  return out as Serialised<T, R>;
}

/** The row a query reads, if any, parsed. */
export async function parsedRow<T extends JsonTable, R extends object>(table: T, query: Promise<R | undefined>): Promise<Parsed<T, R> | undefined> {
  const row = await query;
  return row === undefined ? undefined : fromStored(table, row);
}

/** The rows a query reads, parsed. */
export async function parsedRows<T extends JsonTable, R extends object>(table: T, query: Promise<R[]>): Promise<Parsed<T, R>[]> {
  return (await query).map((row) => fromStored(table, row));
}
