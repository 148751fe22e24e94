/**
 * The Management API route table: every area's operations, registered from
 * this one list so the table can be read and grepped in one place. Each area
 * module lists its operations (one file per operation) and builds its service.
 */
import { actionRoutes } from './actions/routes.js';
import { tokenExchangeProfileRoutes } from './token-exchange-profiles/routes.js';
import { connectionProfileRoutes } from './connection-profiles/routes.js';
import { userAttributeProfileRoutes } from './user-attribute-profiles/routes.js';
import { attackProtectionRoutes } from './attack-protection/routes.js';
import { brandingRoutes } from './branding/routes.js';
import { clientGrantRoutes } from './client-grants/routes.js';
import { clientCredentialRoutes } from './clients/credentials/routes.js';
import { clientRoutes } from './clients/routes.js';
import { customDomainRoutes } from './custom-domains/routes.js';
import { emailRoutes } from './emails/routes.js';
import { emailTemplateRoutes } from './email-templates/routes.js';
import { connectionRoutes } from './connections/routes.js';
import { scimConfigurationRoutes } from './scim-configuration/routes.js';
import { directoryProvisioningRoutes } from './directory-provisioning/routes.js';
import { selfServiceProfileRoutes } from './self-service-profiles/routes.js';
import { consentGrantRoutes } from './grants/routes.js';
import { groupRoutes } from './groups/routes.js';
import { guardianRoutes } from './guardian/routes.js';
import { signingKeyRoutes } from './keys/signing/routes.js';
import { customSigningKeyRoutes } from './keys/custom-signing/routes.js';
import { encryptionKeyRoutes } from './keys/encryption/routes.js';
import { logStreamRoutes } from './log-streams/routes.js';
import { eventStreamRoutes } from './event-streams/routes.js';
import { subscribeEvents } from './events/subscribe.js';
import { logRoutes } from './logs/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { promptRoutes } from './prompts/routes.js';
import { resourceServerRoutes } from './resource-servers/routes.js';
import { roleRoutes } from './roles/routes.js';
import { riskAssessmentRoutes } from './risk-assessments/routes.js';
import { supplementalSignalsRoutes } from './supplemental-signals/routes.js';
import { userMultifactorRoutes } from './users/multifactor/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import { refreshTokenRoutes } from './refresh-tokens/routes.js';
import { deviceCredentialRoutes } from './device-credentials/routes.js';
import { statsRoutes } from './stats/routes.js';
import { anomalyRoutes } from './anomaly/routes.js';
import { networkAclRoutes } from './network-acls/routes.js';
import { rateLimitPolicyRoutes } from './rate-limit-policies/routes.js';
import { tenantSettingsRoutes } from './tenants/settings/routes.js';
import { userBlockRoutes } from './user-blocks/routes.js';
import { userRoutes } from './users/routes.js';
import { jobRoutes } from './jobs/routes.js';
import { ticketRoutes } from './tickets/routes.js';
import type { ManagementRoute } from './route.js';
import type { AppContext } from '../domain/context.js';

export function managementRoutes(ctx: AppContext): ManagementRoute[] {
  return [
    ...clientRoutes(ctx),
    ...clientCredentialRoutes(ctx),
    ...customDomainRoutes(ctx),
    ...resourceServerRoutes(ctx),
    ...clientGrantRoutes(ctx),
    ...organizationRoutes(ctx),
    ...guardianRoutes(ctx),
    ...roleRoutes(ctx),
    ...groupRoutes(ctx),
    ...connectionRoutes(ctx),
    ...scimConfigurationRoutes(ctx),
    ...directoryProvisioningRoutes(ctx),
    ...selfServiceProfileRoutes(ctx),
    ...userRoutes(ctx),
    ...userBlockRoutes(ctx),
    ...jobRoutes(ctx),
    ...ticketRoutes(ctx),
    ...consentGrantRoutes(ctx),
    ...sessionRoutes(ctx),
    ...refreshTokenRoutes(ctx),
    ...deviceCredentialRoutes(ctx),
    ...statsRoutes(ctx),
    ...anomalyRoutes(ctx),
    ...networkAclRoutes(ctx),
    ...rateLimitPolicyRoutes(ctx),
    ...signingKeyRoutes(ctx),
    ...customSigningKeyRoutes(ctx),
    ...encryptionKeyRoutes(ctx),
    ...tenantSettingsRoutes(ctx),
    ...logRoutes(ctx),
    ...logStreamRoutes(ctx),
    ...eventStreamRoutes(ctx),
    subscribeEvents(ctx),
    ...attackProtectionRoutes(ctx),
    ...emailRoutes(ctx),
    ...emailTemplateRoutes(ctx),
    ...riskAssessmentRoutes(ctx),
    ...supplementalSignalsRoutes(ctx),
    ...userMultifactorRoutes(ctx),
    ...brandingRoutes(ctx),
    ...promptRoutes(ctx),
    ...actionRoutes(ctx),
    ...tokenExchangeProfileRoutes(ctx),
    ...connectionProfileRoutes(ctx),
    ...userAttributeProfileRoutes(ctx),
  ];
}
