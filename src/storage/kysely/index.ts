/**
 * The Kysely implementation of every store (src/domain/stores.ts), built on
 * one database handle or transaction, and the unit of work that runs work
 * on stores bound to one transaction. Only the composition root calls these.
 */
import type { Stores, UnitOfWork } from '../../domain/stores.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../database.js';
import { KyselyAuthorizationCodeStore } from './authorization-codes.js';
import { KyselyAuthorizationRequestStore } from './authorize-transactions.js';
import { KyselyClientCredentialStore } from './client-credentials.js';
import { KyselyClientGrantStore } from './client-grants.js';
import { OffsetAnchors } from './client-offset-anchors.js';
import { KyselyClientStore } from './clients.js';
import { KyselyConnectionStore } from './connections.js';
import { KyselyConsentGrantStore } from './consent-grants.js';
import { KyselyCustomDomainStore } from './custom-domains.js';
import { KyselyBackchannelAuthRequestStore } from './backchannel-auth-requests.js';
import { KyselyBackchannelLogoutStore } from './backchannel-logout.js';
import { KyselyLogStreamStore } from './log-streams.js';
import { KyselyEventStreamStore } from './event-streams.js';
import { KyselyTenantLogStore } from './tenant-logs.js';
import { KyselyDeviceCodeStore } from './device-codes.js';
import { KyselyUiSettingsStore } from './ui-settings.js';
import { KyselyCaptchaSettingsStore } from './captcha-settings.js';
import { KyselyGroupStore } from './groups.js';
import { KyselyGuardianPushStore } from './guardian.js';
import { KyselyMfaStore } from './mfa.js';
import { KyselyOneTimeUseStore } from './one-time-uses.js';
import { KyselyUpstreamTokenSetStore } from './upstream-token-sets.js';
import { KyselyPasswordlessStore } from './passwordless.js';
import { KyselyOrganizationConnectionStore } from './organization-connections.js';
import { KyselyOrganizationDiscoveryDomainStore } from './organization-discovery-domains.js';
import { KyselyScimStore } from './scim.js';
import { KyselyDirectoryProvisioningStore } from './directory-provisioning.js';
import { KyselySelfServiceStore } from './self-service.js';
import { KyselyEmailProviderStore, KyselyEmailTemplateStore } from './email.js';
import { KyselyOrganizationInvitationStore } from './organization-invitations.js';
import { KyselyOrganizationMemberStore } from './organization-members.js';
import { KyselyOrganizationStore } from './organizations.js';
import { KyselyPushedRequestStore } from './pushed-requests.js';
import { KyselyRbacStore } from './rbac.js';
import { KyselyRefreshTokenStore } from './refresh-tokens.js';
import { KyselyResourceServerStore } from './resource-servers.js';
import { KyselyRoleStore } from './roles.js';
import { KyselySamlpSessionStore } from './samlp-sessions.js';
import { KyselySessionStore } from './sessions.js';
import { KyselySigningKeyStore } from './signing-keys.js';
import { KyselyTenantStore } from './tenants.js';
import { KyselyTicketStore } from './tickets.js';
import { KyselyRiskAssessmentStore } from './risk-assessments.js';
import { KyselyMfaRememberEpochStore } from './mfa-remember-epochs.js';
import { KyselyDeviceCredentialStore } from './device-credentials.js';
import { KyselyNetworkAclStore } from './network-acls.js';
import { KyselyRateLimitPolicyStore } from './rate-limit-policies.js';
import { KyselyGuardianDuoStore } from './guardian-duo.js';
import { KyselyCustomSigningKeyStore } from './custom-signing-keys.js';
import { KyselyEncryptionKeyStore, KyselySealedValueStore } from './encryption-keys.js';
import { KyselyConnectionKeyStore } from './connection-keys.js';
import { KyselyStatsStore } from './stats.js';
import { KyselyUserStore } from './users.js';
import { KyselyJobStore } from './jobs.js';
import { KyselyActionBindingStore, KyselyActionExecutionStore, KyselyActionStore } from './actions.js';
import { KyselyActionModuleStore } from './action-modules.js';
import { KyselyTokenExchangeProfileStore } from './token-exchange-profiles.js';
import { KyselyConnectionProfileStore } from './connection-profiles.js';
import { KyselyUserAttributeProfileStore } from './user-attribute-profiles.js';

/** Every store on `db` (the database or a transaction); `clientAnchors` is shared, as its cache must be. */
function storesOn(db: Db, clientAnchors: OffsetAnchors): Stores {
  return {
    tenants: new KyselyTenantStore(db),
    signingKeys: new KyselySigningKeyStore(db),
    clients: new KyselyClientStore(db),
    clientAnchors,
    resourceServers: new KyselyResourceServerStore(db),
    clientGrants: new KyselyClientGrantStore(db),
    organizations: new KyselyOrganizationStore(db),
    organizationMembers: new KyselyOrganizationMemberStore(db),
    organizationConnections: new KyselyOrganizationConnectionStore(db),
    organizationInvitations: new KyselyOrganizationInvitationStore(db),
    organizationDiscoveryDomains: new KyselyOrganizationDiscoveryDomainStore(db),
    scim: new KyselyScimStore(db),
    directoryProvisioning: new KyselyDirectoryProvisioningStore(db),
    selfService: new KyselySelfServiceStore(db),
    emailProviders: new KyselyEmailProviderStore(db),
    emailTemplates: new KyselyEmailTemplateStore(db),
    roles: new KyselyRoleStore(db),
    groups: new KyselyGroupStore(db),
    rbac: new KyselyRbacStore(db),
    guardian: new KyselyGuardianPushStore(db),
    connections: new KyselyConnectionStore(db),
    users: new KyselyUserStore(db),
    jobs: new KyselyJobStore(db),
    consentGrants: new KyselyConsentGrantStore(db),
    tickets: new KyselyTicketStore(db),
    deviceCredentials: new KyselyDeviceCredentialStore(db),
    stats: new KyselyStatsStore(db),
    refreshTokens: new KyselyRefreshTokenStore(db),
    sessions: new KyselySessionStore(db),
    authorizeTransactions: new KyselyAuthorizationRequestStore(db),
    authorizationCodes: new KyselyAuthorizationCodeStore(db),
    clientCredentials: new KyselyClientCredentialStore(db),
    oneTimeUses: new KyselyOneTimeUseStore(db),
    upstreamTokenSets: new KyselyUpstreamTokenSetStore(db),
    pushedRequests: new KyselyPushedRequestStore(db),
    customDomains: new KyselyCustomDomainStore(db),
    samlpSessions: new KyselySamlpSessionStore(db),
    mfa: new KyselyMfaStore(db),
    passwordless: new KyselyPasswordlessStore(db),
    deviceCodes: new KyselyDeviceCodeStore(db),
    backchannelLogout: new KyselyBackchannelLogoutStore(db),
    backchannelAuthRequests: new KyselyBackchannelAuthRequestStore(db),
    tenantLogs: new KyselyTenantLogStore(db),
    logStreams: new KyselyLogStreamStore(db),
    eventStreams: new KyselyEventStreamStore(db),
    networkAcls: new KyselyNetworkAclStore(db),
    rateLimitPolicies: new KyselyRateLimitPolicyStore(db),
    guardianDuo: new KyselyGuardianDuoStore(db),
    customSigningKeys: new KyselyCustomSigningKeyStore(db),
    encryptionKeys: new KyselyEncryptionKeyStore(db),
    sealedValues: new KyselySealedValueStore(db),
    connectionKeys: new KyselyConnectionKeyStore(db),
    uiSettings: new KyselyUiSettingsStore(db),
    captchaSettings: new KyselyCaptchaSettingsStore(db),
    actions: new KyselyActionStore(db),
    actionBindings: new KyselyActionBindingStore(db),
    actionExecutions: new KyselyActionExecutionStore(db),
    actionModules: new KyselyActionModuleStore(db),
    tokenExchangeProfiles: new KyselyTokenExchangeProfileStore(db),
    connectionProfiles: new KyselyConnectionProfileStore(db),
    userAttributeProfiles: new KyselyUserAttributeProfileStore(db),
    riskAssessments: new KyselyRiskAssessmentStore(db),
    mfaRememberEpochs: new KyselyMfaRememberEpochStore(db),
  };
}

/** The stores of the database, and its unit of work. */
export function kyselyStores(db: Db, clock: Clock): { stores: Stores; unitOfWork: UnitOfWork } {
  const clientAnchors = new OffsetAnchors(db, () => clock.now());
  /** The unit of work on `trx`: every call runs in that same transaction. */
  const joined = (trx: Db): UnitOfWork => {
    const unit: UnitOfWork = { transaction: (work) => work(storesOn(trx, clientAnchors), unit) };
    return unit;
  };
  return {
    stores: storesOn(db, clientAnchors),
    unitOfWork: {
      transaction: (work) => db.transaction().execute((trx) => work(storesOn(trx, clientAnchors), joined(trx))),
    },
  };
}
