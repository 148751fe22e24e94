/**
 * Every store Gatehouse uses, as the interfaces the domain declares for them
 * (domain/<entity>/store.ts). The composition root (src/app/context.ts) builds
 * one set on the database (src/storage/kysely/index.ts) and hands it to the
 * services; nothing else constructs a store.
 *
 * Work that must be all-or-nothing runs through the unit of work: the stores
 * it is given write in one transaction, committed when the work resolves and
 * rolled back when it throws.
 */
import type { CaptchaSettingsStore } from './attack-protection/captcha.js';
import type { UiSettingsStore } from './branding/store.js';
import type { AuthorizationCodeStore } from './authorization-codes/store.js';
import type { AuthorizationRequestStore } from './authorize-transactions/store.js';
import type { ClientCredentialStore } from './client-credentials/store.js';
import type { ClientGrantStore } from './client-grants/store.js';
import type { ClientOffsetAnchors, ClientStore } from './clients/store.js';
import type { ConnectionStore } from './connections/store.js';
import type { ConsentGrantStore } from './consent-grants/store.js';
import type { CustomDomainStore } from './custom-domains/store.js';
import type { BackchannelAuthRequestStore } from './backchannel-authentication/store.js';
import type { BackchannelLogoutStore } from './backchannel-logout/store.js';
import type { LogStreamStore } from './log-streams/store.js';
import type { EventStreamStore } from './event-streams/store.js';
import type { TenantLogStore } from './logs/store.js';
import type { DeviceCodeStore } from './device-codes/store.js';
import type { GroupStore } from './groups/store.js';
import type { GuardianPushStore } from './guardian/store.js';
import type { SigningKeyStore } from './keys/store.js';
import type { MfaRememberEpochStore, MfaStore } from './mfa/store.js';
import type { RiskAssessmentStore } from './risk-assessments/store.js';
import type { PasswordlessStore } from './passwordless/store.js';
import type { OneTimeUseStore } from './one-time-use/store.js';
import type { UpstreamTokenSetStore } from './upstream-tokens/store.js';
import type { OrganizationConnectionStore } from './organizations/connections-store.js';
import type { OrganizationDiscoveryDomainStore } from './organizations/discovery-domains-store.js';
import type { EmailProviderStore, EmailTemplateStore } from './email/store.js';
import type { OrganizationInvitationStore } from './organizations/invitations-store.js';
import type { OrganizationMemberStore } from './organizations/members-store.js';
import type { OrganizationStore } from './organizations/store.js';
import type { PushedRequestStore } from './pushed-requests/store.js';
import type { RbacStore } from './rbac/store.js';
import type { RefreshTokenStore } from './refresh-tokens/store.js';
import type { ResourceServerStore } from './resource-servers/store.js';
import type { RoleStore } from './roles/store.js';
import type { SamlpSessionStore } from './samlp-sessions/store.js';
import type { SessionStore } from './sessions/store.js';
import type { TenantStore } from './tenants/store.js';
import type { TicketStore } from './tickets/store.js';
import type { DeviceCredentialStore } from './device-credentials/store.js';
import type { NetworkAclStore } from './network-acls/store.js';
import type { RateLimitPolicyStore } from './rate-limit-policies/store.js';
import type { GuardianDuoStore } from './guardian/duo.js';
import type { CustomSigningKeyStore } from './keys/custom-signing.js';
import type { EncryptionKeyStore, SealedValueStore } from './encryption/store.js';
import type { ConnectionKeyStore } from './connections/keys.js';
import type { StatsStore } from './stats/store.js';
import type { UserStore } from './users/store.js';
import type { JobStore } from './jobs/store.js';
import type { ActionBindingStore, ActionExecutionStore, ActionModuleStore, ActionStore } from './actions/store.js';
import type { TokenExchangeProfileStore } from './token-exchange-profiles/store.js';
import type { ConnectionProfileStore } from './connection-profiles/store.js';
import type { UserAttributeProfileStore } from './user-attribute-profiles/store.js';
import type { ScimStore } from './scim/store.js';
import type { DirectoryProvisioningStore } from './directory-provisioning/store.js';
import type { SelfServiceStore } from './self-service/store.js';

export interface Stores {
  tenants: TenantStore;
  signingKeys: SigningKeyStore;
  clients: ClientStore;
  /** Cached starting points of deep offset pages of clients (dropped on client writes). */
  clientAnchors: ClientOffsetAnchors;
  resourceServers: ResourceServerStore;
  clientGrants: ClientGrantStore;
  organizations: OrganizationStore;
  organizationMembers: OrganizationMemberStore;
  organizationConnections: OrganizationConnectionStore;
  organizationInvitations: OrganizationInvitationStore;
  organizationDiscoveryDomains: OrganizationDiscoveryDomainStore;
  /** SCIM provisioning per enterprise connection. */
  scim: ScimStore;
  directoryProvisioning: DirectoryProvisioningStore;
  selfService: SelfServiceStore;
  emailProviders: EmailProviderStore;
  emailTemplates: EmailTemplateStore;
  roles: RoleStore;
  groups: GroupStore;
  rbac: RbacStore;
  guardian: GuardianPushStore;
  connections: ConnectionStore;
  users: UserStore;
  jobs: JobStore;
  consentGrants: ConsentGrantStore;
  tickets: TicketStore;
  deviceCredentials: DeviceCredentialStore;
  stats: StatsStore;
  refreshTokens: RefreshTokenStore;
  sessions: SessionStore;
  authorizeTransactions: AuthorizationRequestStore;
  authorizationCodes: AuthorizationCodeStore;
  clientCredentials: ClientCredentialStore;
  oneTimeUses: OneTimeUseStore;
  upstreamTokenSets: UpstreamTokenSetStore;
  pushedRequests: PushedRequestStore;
  customDomains: CustomDomainStore;
  samlpSessions: SamlpSessionStore;
  /** Multi-factor factors, policies, enrolments and challenges. */
  mfa: MfaStore;
  /** Passwordless login codes. */
  passwordless: PasswordlessStore;
  deviceCodes: DeviceCodeStore;
  backchannelLogout: BackchannelLogoutStore;
  backchannelAuthRequests: BackchannelAuthRequestStore;
  /** Tenant log events (written in batches by src/domain/logs/tenant-logs.ts). */
  tenantLogs: TenantLogStore;
  logStreams: LogStreamStore;
  /** Event streams and the outbox of their deliveries. */
  eventStreams: EventStreamStore;
  networkAcls: NetworkAclStore;
  rateLimitPolicies: RateLimitPolicyStore;
  /** The Duo factor's settings. */
  guardianDuo: GuardianDuoStore;
  customSigningKeys: CustomSigningKeyStore;
  /** The tenants' encryption key hierarchy (src/domain/encryption/). */
  encryptionKeys: EncryptionKeyStore;
  /** The scan and rewrite of sealed values a rekey walks. */
  sealedValues: SealedValueStore;
  /** The keys oidc and okta connections sign their client assertions with (private_key_jwt). */
  connectionKeys: ConnectionKeyStore;
  /** Branding, the prompts' settings and custom texts of the hosted pages. */
  uiSettings: UiSettingsStore;
  /** The tenants' CAPTCHA configuration (bot detection's challenge), its secrets sealed. */
  captchaSettings: CaptchaSettingsStore;
  /** Actions (drafts, builds) and their versions. */
  actions: ActionStore;
  /** The triggers' ordered lists of actions. */
  actionBindings: ActionBindingStore;
  /** What runs of the triggers did (recorded by the runtime). */
  actionExecutions: ActionExecutionStore;
  /** Actions modules (shared code of actions) and their published versions. */
  actionModules: ActionModuleStore;
  tokenExchangeProfiles: TokenExchangeProfileStore;
  /** Connection profiles (what express-configured enterprise connections start from). */
  connectionProfiles: ConnectionProfileStore;
  /** User attribute profiles (attribute mappings of enterprise connections). */
  userAttributeProfiles: UserAttributeProfileStore;
  /** The new-device assessor's known devices and the logins' risk assessments. */
  riskAssessments: RiskAssessmentStore;
  /** The per-user epoch of MFA's remembered browsers. */
  mfaRememberEpochs: MfaRememberEpochStore;
}

/**
 * A consumer names the stores its work uses, `UnitOfWork<{ roles: RoleStore }>`
 * (the composition root's, over every store, is one of those).
 */
export interface UnitOfWork<S = Stores> {
  /**
   * Runs `work` with stores bound to one transaction. `joined` runs further
   * work in that same transaction (a helper that is all-or-nothing itself,
   * called from inside one); the outer unit of work would wait for it.
   */
  transaction<T>(work: (stores: S, joined: UnitOfWork<S>) => Promise<T>): Promise<T>;
}
