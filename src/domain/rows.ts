/**
 * Rows of every table, as the stores read and write them. Booleans are
 * integers (0/1) and timestamps ISO-8601 text in UTC, which sorts correctly.
 * JSON columns are typed values here: the stores parse them on the way out
 * and serialise them on the way in (src/storage/json-columns.ts), so
 * nothing above storage parses JSON text.
 */
import type { TenantSettings } from './tenants/settings.js';

/** A JSON object of a row. */
export type JsonObject = Record<string, unknown>;

/** A client's configuration members other than its own columns, as the Management API returns them. */
export type ClientConfig = JsonObject;

/** `client_authentication_methods`: each method and the credentials it uses. */
export type ClientAuthenticationMethods = Record<string, { credentials?: { id: string }[] } | null | undefined>;

/** A scope an API defines. */
export interface ResourceServerScope {
  value: string;
  description?: string;
}

/** `OrganizationBranding` of the service's OpenAPI document. */
export interface OrganizationBranding {
  logo_url?: string;
  colors?: { primary: string; page_background: string };
}

/** A public JWK (RSA: kty, n, e). */
export type PublicJwk = { kty: string; n: string; e: string } & JsonObject;
export interface TenantRow {
  id: string;
  name: string;
  domain: string;
  settings: TenantSettings;
  created_at: string;
}

export interface SigningKeyRow {
  tenant_id: string;
  kid: string;
  /** PKCS#8 PEM sealed with the master key (context `signing_key:<kid>`). */
  private_key_enc: string;
  public_jwk: PublicJwk;
  /** Base64 DER of the self-signed certificate published as `x5c`. */
  cert_der: string;
  /**
   * `next` is published and will sign after the next rotation; `current`
   * signs; `previous` only verifies; `revoked` neither (migration 0061).
   */
  status: SigningKeyStatus;
  created_at: string;
  /** When it became current; null while `next`. */
  current_since: string | null;
  /** When a rotation made it `previous`. */
  current_until: string | null;
  revoked_at: string | null;
}

export type SigningKeyStatus = 'next' | 'current' | 'previous' | 'revoked';

export interface ClientRow {
  tenant_id: string;
  client_id: string;
  name: string;
  description: string;
  app_type: string | null;
  is_first_party: number;
  global: number;
  token_endpoint_auth_method: string;
  client_authentication_methods: ClientAuthenticationMethods | null;
  grant_types: string[];
  /** Sealed with the master key (context `client_secret:<tenant_id>:<client_id>`). */
  client_secret_enc: string | null;
  created_at: string;
  updated_at: string;
  external_client_id: string | null;
  /** Every other member of the client as the Management API returns it. */
  config: ClientConfig;
}

export interface ClientCountRow {
  tenant_id: string;
  global: number;
  is_first_party: number;
  /** '' when the client has no app_type. */
  app_type: string;
  n: number;
}

export interface OrganizationRow {
  tenant_id: string;
  id: string;
  name: string;
  display_name: string | null;
  branding: OrganizationBranding | null;
  metadata: Record<string, string>;
  created_at: string;
}

export interface OrganizationClientGrantRow {
  tenant_id: string;
  organization_id: string;
  grant_id: string;
  created_at: string;
}

export interface RoleRow {
  tenant_id: string;
  id: string;
  name: string;
  /** null when the role was created without one (the service then returns null). */
  description: string | null;
  created_at: string;
}

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

export interface GuardianPushNotificationRow {
  tenant_id: string;
  enabled: number;
  selected_provider: string;
  /** JSON {sandbox?, bundle_id?} or null. */
  apns: string | null;
  apns_p12_enc: string | null;
  /** JSON of the SNS fields but the secret key (the access key id inside it sealed), or null. */
  sns: string | null;
  sns_secret_access_key_enc: string | null;
  updated_at: string;
}

export interface ResourceServerRow {
  tenant_id: string;
  id: string;
  identifier: string;
  name: string;
  is_system: number;
  scopes: ResourceServerScope[];
  signing_alg: string;
  signing_secret_enc: string | null;
  token_lifetime: number;
  token_lifetime_for_web: number;
  allow_offline_access: number;
  skip_consent_for_verifiable_first_party_clients: number;
  enforce_policies: number;
  token_dialect: string;
  /** The remaining, rarely used members (token_encryption, proof_of_possession, …). */
  options: JsonObject;
  created_at: string;
  updated_at: string;
}

export interface ClientGrantRow {
  tenant_id: string;
  id: string;
  client_id: string | null;
  audience: string;
  scope: string[];
  organization_usage: string | null;
  allow_any_organization: number | null;
  is_system: number;
  /** `client` (machine-to-machine) or `user`. */
  subject_type: string;
  authorization_details_types: string[];
  allow_all_scopes: number | null;
  default_for: string | null;
  created_at: string;
}

export interface ConnectionRow {
  tenant_id: string;
  id: string;
  name: string;
  display_name: string | null;
  strategy: string;
  options: JsonObject;
  is_domain_connection: number;
  realms: string[];
  metadata: Record<string, string | null>;
  created_at: string;
  updated_at: string;
}

export interface ConnectionClientRow {
  tenant_id: string;
  connection_id: string;
  client_id: string;
}

export interface UserRow {
  tenant_id: string;
  user_id: string;
  connection_id: string;
  email: string | null;
  /** Lower-cased email: unique per connection, the login lookup. */
  email_lower: string | null;
  email_verified: number;
  username: string | null;
  username_lower: string | null;
  phone_number: string | null;
  /** 0 or 1 (migration 0012). */
  phone_verified: number;
  /** argon2id, or an imported bcrypt hash until the next successful login. */
  password_hash: string | null;
  blocked: number;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  nickname: string | null;
  picture: string | null;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  last_password_reset: string | null;
  logins_count: number;
  /**
   * The primary user this row is a linked identity of (migration 0085), null
   * for a user of its own. A linked row is no user: only its
   * primary's identities and the logins of its connection see it.
   */
  linked_to: string | null;
}

/** One-use emailed tickets (migration 0007); only the ticket's SHA-256 is stored. */
export interface TicketRow {
  tenant_id: string;
  id_hash: string;
  kind: 'email_verification' | 'password_reset';
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Tickets of the Management API (migration 0071): where the page sends the browser once the ticket is used. */
  result_url?: string | null;
  /** 1/0: a password change also verifies the address; NULL (emailed tickets): it does. */
  mark_email_verified?: number | null;
  /** 1: the address is added to result_url (`email=`). */
  include_email?: number | null;
}

/** Refresh tokens (migration 0008); only the token's SHA-256 is stored. ISO 8601 UTC timestamps. */
export interface RefreshTokenRow {
  tenant_id: string;
  id_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  audience: string | null;
  scope: string;
  created_at: string;
  expires_at: string | null;
  idle_expires_at: string | null;
  last_used_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
  /** The DPoP key (JWK thumbprint) a public client's token is bound to (migration 0016); null: unbound. */
  dpop_jkt?: string | null;
  /** The organization the grant was for (migration 0040), kept by every refresh; null without one. */
  organization_id: string | null;
}

/** Login sessions (migration 0009); only the cookie value's SHA-256 is stored. */
export interface SessionRow {
  tenant_id: string;
  id_hash: string;
  user_id: string;
  /** Seconds since the epoch. */
  auth_time: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The authentication methods of the login, space-separated (`mfa` once a second factor was used; migration 0020). */
  amr: string | null;
  /** When the session last answered a login (single sign-on); null until then (migration 0060). */
  last_interacted_at: string | null;
}

/** A SAML service provider an SSO session answered (migration 0030). */
export interface SamlpParticipantRow {
  tenant_id: string;
  session_hash: string;
  client_id: string;
  name_id: string;
  name_id_format: string;
  session_index: string;
  created_at: string;
}

/** /authorize requests waiting for a login (migration 0009). */
export interface AuthorizationRequestRow {
  tenant_id: string;
  id_hash: string;
  client_id: string;
  /** The validated request (the Authentication API's AuthorizeRequest). */
  params: JsonObject;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** base64url SHA-256 of the starting browser's `__Host-gh_browser` cookie (migration 0012); null for older rows. */
  browser_hash: string | null;
  /** The interaction steps completed in this request (migration 0013). */
  completed_steps: string[];
  /** `id_hash` of the session this request's login step started (migration 0013); null until then. */
  session_hash: string | null;
}

/** A custom domain of a tenant (migration 0017). */
export interface CustomDomainRow {
  tenant_id: string;
  /** `cd_…` */
  id: string;
  /** Lower case, unique across tenants. */
  domain: string;
  type: 'auth0_managed_certs' | 'self_managed_certs';
  status: 'pending_verification' | 'ready';
  /** The TXT record value that proves control of the domain. */
  verification_record: string;
  /** SHA-256 (base64url) of the edge key (`cname_api_key`), set at the first verification of a self-managed domain. */
  edge_key_hash: string | null;
  custom_client_ip_header: string | null;
  tls_policy: string;
  domain_metadata: Record<string, string>;
  created_at: string;
}

/** A pushed authorization request (RFC 9126; migration 0015). */
export interface PushedAuthorizationRequestRow {
  tenant_id: string;
  /** SHA-256 of the request_uri's secret part. */
  id_hash: string;
  client_id: string;
  /** The /authorize parameters as pushed. */
  params: Record<string, string>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A client's registered public key or certificate (migration 0014). */
export interface ClientCredentialRow {
  tenant_id: string;
  /** `cred_…` */
  id: string;
  client_id: string;
  credential_type: 'public_key' | 'cert_subject_dn' | 'x509_cert';
  name: string;
  kid: string;
  /** RS256, RS384 or PS256 for `public_key`; null for the certificate types. */
  alg: string | null;
  /** The PEM as registered (public key or certificate); null for `cert_subject_dn`. */
  pem: string | null;
  subject_dn: string | null;
  /** base64url SHA-256 of the certificate's DER, for `x509_cert` (and `public_key` given as a certificate). */
  thumbprint_sha256: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A once-usable identifier's hash until it expires (migration 0014). */
export interface OneTimeUseRow {
  tenant_id: string;
  purpose: string;
  key_hash: string;
  expires_at: string;
}

/** Authorization codes (migration 0009); only the code's SHA-256 is stored. */
export interface AuthorizationCodeRow {
  tenant_id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string | null;
  scope: string | null;
  audience: string | null;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  session_id: string;
  /** Seconds since the epoch. */
  auth_time: number;
  expires_at: string;
  used_at: string | null;
  refresh_family_id: string | null;
  /** The DPoP key the code must be redeemed with (migration 0016); null: unbound. */
  dpop_jkt?: string | null;
  /** The session's `amr` when the code was issued (migration 0020). */
  amr: string | null;
  /** The organization the login was for (migration 0040); null without one. */
  organization_id: string | null;
}

/** Users' consent grants (migration 0010): one per user, client and audience. */
export interface ConsentGrantRow {
  tenant_id: string;
  id: string;
  user_id: string;
  client_id: string;
  audience: string;
  scope: string[];
  created_at: string;
  updated_at: string;
}

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

/** Users who are members of groups (migration 0011). */
export interface GroupMembershipRow {
  tenant_id: string;
  group_id: string;
  user_id: string;
  created_at: string;
}


/** Whether a multi-factor factor is enabled, per tenant (migration 0020). */
export interface GuardianFactorRow {
  tenant_id: string;
  name: string;
  enabled: number;
  updated_at: string;
}

/** A tenant's MFA policies (migration 0020): JSON array text. */
export interface GuardianPolicyRow {
  tenant_id: string;
  policies: string;
  updated_at: string;
}

/** A user's MFA enrolment (migration 0020). */
export interface MfaAuthenticatorRow {
  tenant_id: string;
  /** `dev_…`. */
  id: string;
  user_id: string;
  /** `totp`, `recovery-code`, `email` or `phone`. */
  type: string;
  /** 0 until the first code proved the enrolment. */
  confirmed: number;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  /** TOTP: the base32 secret, sealed (src/domain/mfa/model.ts totpSecretContext). */
  secret_enc: string | null;
  /** Recovery code: its SHA-256. */
  code_hash: string | null;
  created_at: string;
  enrolled_at: string | null;
  last_auth_at: string | null;
  /** Push (migration 0050): `APNS` or `GCM`, once the device enrolled. */
  push_service?: string | null;
  /** Push: the device's push token, sealed (src/domain/mfa/model.ts pushTokenContext). */
  push_token_enc?: string | null;
  /** Push: the device's public key, a JWK as JSON. */
  public_key?: string | null;
}

/** An out-of-band challenge (migration 0020): the oob_code and its binding code, both as SHA-256. */
export interface MfaChallengeRow {
  tenant_id: string;
  oob_hash: string;
  authenticator_id: string;
  user_id: string;
  client_id: string;
  binding_hash: string;
  expires_at: string;
  used_at: string | null;
  /** Push (migration 0050): `pending`, `approved` or `denied`; null for binding-code challenges. */
  status?: string | null;
  /** Push: SHA-256 of the transaction id the device names. */
  transaction_hash?: string | null;
  last_polled_at?: string | null;
}

/** Consecutive wrong second-factor codes of a user in a window (migration 0020). */
export interface MfaFailureRow {
  tenant_id: string;
  user_id: string;
  failures: number;
  window_started_at: string;
}

/** A passwordless login code (migration 0021): one live code per connection and recipient, as SHA-256. */
export interface PasswordlessCodeRow {
  tenant_id: string;
  connection_id: string;
  /** The lower-cased email address (or phone number) the code was sent to. */
  recipient: string;
  client_id: string;
  code_hash: string;
  failures: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Members of organizations (migration 0040). */
export interface OrganizationMemberRow {
  tenant_id: string;
  organization_id: string;
  user_id: string;
  created_at: string;
}

/** Roles organization members hold in that organization (migration 0040). */
export interface OrganizationMemberRoleRow {
  tenant_id: string;
  organization_id: string;
  user_id: string;
  role_id: string;
  created_at: string;
}

/** Connections enabled for organizations (migration 0040); booleans as 0/1. */
export interface OrganizationConnectionRow {
  tenant_id: string;
  organization_id: string;
  connection_id: string;
  assign_membership_on_login: number;
  show_as_button: number;
  is_signup_enabled: number;
  created_at: string;
}

/** Email domains by which the organization prompt finds an organization (migration 0055); booleans as 0/1. */
export interface OrganizationDiscoveryDomainRow {
  tenant_id: string;
  /** `ordd_…` */
  id: string;
  organization_id: string;
  /** Lower case. */
  domain: string;
  status: 'pending' | 'verified';
  use_for_organization_discovery: number;
  verification_txt: string;
  created_at: string;
}

/**
 * Invitations to organizations (migration 0040): the ticket under its SHA-256
 * (lookup) and sealed under the master key (the invitation URL is shown again).
 */
export interface OrganizationInvitationRow {
  tenant_id: string;
  /** `uinv_…` */
  id: string;
  organization_id: string;
  ticket_hash: string;
  ticket_enc: string;
  inviter_name: string;
  invitee_email: string;
  client_id: string;
  connection_id: string | null;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  /** Role ids the invitee gets in the organization. */
  roles: string[];
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** The SMS factor's Twilio provider and templates (migration 0022); JSON text columns. */
export interface GuardianSmsRow {
  tenant_id: string;
  twilio: string | null;
  twilio_auth_token_enc: string | null;
  templates: string | null;
  updated_at: string;
}

/** Device authorization requests (migration 0041, RFC 8628); codes kept as their SHA-256. */
export interface DeviceCodeRow {
  tenant_id: string;
  /** `dev_…`: the request's id, carried by the /activate pages (never a secret). */
  id: string;
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  scope: string | null;
  audience: string | null;
  status: 'pending' | 'approved' | 'denied';
  /** Set on approval: the login that approved it. */
  user_id: string | null;
  session_id: string | null;
  auth_time: number | null;
  organization_id: string | null;
  /** Seconds between polls. */
  interval: number;
  created_at: string;
  expires_at: string;
  last_polled_at: string | null;
  expiry_reported: number;
  used_at: string | null;
}

/** The clients an SSO session issued tokens to (migration 0042). */
export interface SessionClientRow {
  tenant_id: string;
  /** The session's `id_hash` (the ID tokens' `sid`). */
  session_id: string;
  client_id: string;
  created_at: string;
}

/** Why a session ended, in the service's words (`backchannel_logout_initiators`). */
export type LogoutInitiator = 'rp-logout' | 'idp-logout' | 'password-changed' | 'session-expired' | 'session-revoked' | 'account-deleted';

/** A queued back-channel logout notification (migration 0042). */
export interface BackchannelLogoutDeliveryRow {
  tenant_id: string;
  /** `bcl_…` */
  id: string;
  client_id: string;
  url: string;
  sid: string;
  sub: string;
  initiator: LogoutInitiator;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  delivered_at: string | null;
  gave_up_at: string | null;
  last_error: string | null;
}

/** CIBA requests (migration 0043); the auth_req_id and the approval ticket kept as their SHA-256. */
export interface BackchannelAuthRequestRow {
  tenant_id: string;
  /** `bcr_…` */
  id: string;
  auth_req_id_hash: string;
  ticket_hash: string;
  client_id: string;
  user_id: string;
  scope: string;
  audience: string | null;
  binding_message: string;
  status: 'pending' | 'approved' | 'denied';
  /** Seconds between polls. */
  interval: number;
  created_at: string;
  expires_at: string;
  /** When the user approved or denied (the tokens' `auth_time`). */
  decided_at: string | null;
  last_polled_at: string | null;
  used_at: string | null;
}

export type JobType = 'users_import' | 'users_export' | 'verification_email';
export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** What a job counts (`summary` of GET /jobs/{id}). */
export interface JobSummary {
  failed: number;
  updated: number;
  inserted: number;
  total: number;
}

/** A Management API job (migration 0070), the durable queue's row. */
export interface JobRow {
  tenant_id: string;
  /** `job_` + 16 characters. */
  id: string;
  type: JobType;
  status: JobStatus;
  connection_id: string | null;
  external_id: string | null;
  params: JsonObject;
  /** The next input item to process (imports), committed with each batch. */
  progress: number;
  summary: JobSummary;
  status_details: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** A user an import could not take (migration 0070). */
export interface JobErrorRow {
  tenant_id: string;
  job_id: string;
  item: number;
  line: number;
  user: JsonObject;
  errors: { code: string; message: string; path: string }[];
}

export interface JobFileRow {
  tenant_id: string;
  job_id: string;
  kind: 'input' | 'output';
  content: string;
}

/**
 * A part of a job's file (migration 0091): a users export is written a page at
 * a time and served by streaming its parts in order, so that neither the job
 * nor the download holds the whole file in memory.
 */
export interface JobFilePartRow {
  tenant_id: string;
  job_id: string;
  kind: 'output';
  part: number;
  content: string;
}

/**
 * Tenant log events (migration 0065), in the service's Log shape. `log_id`
 * sorts as the events were recorded (src/domain/logs/log-id.ts); `date` is
 * ISO-8601. `details` never holds a secret (src/domain/logs/events.ts).
 */
export interface TenantLogRow {
  tenant_id: string;
  log_id: string;
  date: string;
  type: string;
  description: string | null;
  client_id: string | null;
  client_name: string | null;
  ip: string | null;
  user_agent: string | null;
  user_id: string | null;
  user_name: string | null;
  connection: string | null;
  connection_id: string | null;
  strategy: string | null;
  strategy_type: string | null;
  audience: string | null;
  scope: string | null;
  hostname: string | null;
  details: Record<string, unknown> | null;
}

export type LogStreamStatus = 'active' | 'paused' | 'suspended';
export type LogStreamContentFormat = 'JSONLINES' | 'JSONARRAY' | 'JSONOBJECT';

/** The sink of an `http` log stream as stored; its Authorization header is sealed apart (`authorization_enc`). */
export interface LogStreamHttpSink {
  httpEndpoint: string;
  httpContentType?: string;
  httpContentFormat?: LogStreamContentFormat;
}

/**
 * Log streams (migration 0065): each is a cursor over the tenant's log
 * (`cursor`, the last `log_id` delivered) with its own retry schedule and a
 * lease (`lease_owner`, `lease_until`) so one process sends a batch at a time.
 */
export interface LogStreamRow {
  tenant_id: string;
  /** `lst_…` */
  id: string;
  name: string;
  type: 'http';
  status: LogStreamStatus;
  filters: { type: 'category'; name: string }[];
  sink: LogStreamHttpSink;
  /** The sealed `httpAuthorization`, never returned. */
  authorization_enc: string | null;
  cursor: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** The tenant's mail provider (migration 0056): SMTP credentials sealed as one JSON object; booleans as 0/1. */
export interface EmailProviderRow {
  tenant_id: string;
  name: string;
  enabled: number;
  default_from_address: string | null;
  /** Sealed JSON of the credentials (smtp_host, smtp_port, smtp_user, smtp_pass). */
  credentials_enc: string;
  settings: JsonObject | null;
  created_at: string;
  updated_at: string;
}

/** A tenant's email template (migration 0056); booleans as 0/1. */
export interface EmailTemplateRow {
  tenant_id: string;
  template: string;
  body: string | null;
  from: string | null;
  subject: string | null;
  syntax: string | null;
  result_url: string | null;
  url_lifetime_in_seconds: number | null;
  include_email_in_redirect: number;
  enabled: number | null;
  created_at: string;
  updated_at: string;
}

/** What a `ui_settings` row holds (src/domain/branding/). */
export type UiSettingKind = 'branding' | 'prompts' | 'custom_text';

/** One document of the hosted pages' look and texts (migration 0080). */
export interface UiSettingRow {
  tenant_id: string;
  kind: UiSettingKind;
  /** '' for branding and prompts; `<prompt>/<language>` for custom text. */
  key: string;
  value: Record<string, unknown>;
  updated_at: string;
}
