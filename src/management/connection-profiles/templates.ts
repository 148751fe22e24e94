/**
 * The connection profile templates Gatehouse offers (GET
 * /connection-profiles/templates): a fixed list, the same for every tenant,
 * each a body that POST /connection-profiles accepts as it is. The service's
 * document gives the shape but not its list (UNCONFIRMED); these are built
 * from the document's members: an organization-bound profile for
 * express-configured (OIN) enterprise connections with SCIM and universal
 * logout, a plain one, and one with per-strategy overrides.
 */
import type { TemplateResponse } from './schema.js';

export const CONNECTION_PROFILE_TEMPLATES: readonly TemplateResponse[] = [
  {
    id: 'cpt_express_configuration',
    display_name: 'Express configuration (organizations, SCIM, universal logout)',
    template: {
      name: 'Express configuration',
      organization: { show_as_button: 'required', assign_membership_on_login: 'required' },
      connection_name_prefix_template: '{org_name}',
      enabled_features: ['scim', 'universal_logout'],
      connection_config: {},
      strategy_overrides: {},
    },
  },
  {
    id: 'cpt_enterprise_sso',
    display_name: 'Enterprise SSO',
    template: {
      name: 'Enterprise SSO',
      organization: { show_as_button: 'none', assign_membership_on_login: 'none' },
      connection_name_prefix_template: 'sso',
      enabled_features: [],
      connection_config: {},
      strategy_overrides: {},
    },
  },
  {
    id: 'cpt_enterprise_sso_provisioning',
    display_name: 'Enterprise SSO with SCIM provisioning for SAML and Okta',
    template: {
      name: 'Enterprise SSO with provisioning',
      organization: { show_as_button: 'optional', assign_membership_on_login: 'optional' },
      connection_name_prefix_template: 'sso-{org_id}',
      enabled_features: ['universal_logout'],
      connection_config: {},
      strategy_overrides: {
        samlp: { enabled_features: ['scim', 'universal_logout'], connection_config: {} },
        okta: { enabled_features: ['scim', 'universal_logout'], connection_config: {} },
      },
    },
  },
];
