/**
 * The user attribute profile templates Gatehouse offers (GET
 * /user-attribute-profiles/templates): a fixed list, the same for every
 * tenant, each a body that POST /user-attribute-profiles accepts as it is.
 * The service's document gives the shape but not its list (UNCONFIRMED);
 * these map the usual attributes from their standard names: OIDC claims
 * (OpenID Connect Core §5.1), the WS-Federation claim URIs SAML IdPs send
 * (and Entra ID's `oid` for Azure AD), SCIM 2.0 core user paths (RFC 7643
 * §4.1).
 */
import type { TemplateResponse } from './schema.js';

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

const email = {
  description: 'The user\'s email address',
  label: 'Email',
  profile_required: true,
  auth0_mapping: 'email',
  oidc_mapping: { mapping: 'email' },
  saml_mapping: [`${CLAIMS}/emailaddress`, 'email', 'mail'],
  scim_mapping: 'emails[primary eq true].value',
};
const givenName = {
  description: 'The user\'s given name',
  label: 'Given name',
  profile_required: false,
  auth0_mapping: 'given_name',
  oidc_mapping: { mapping: 'given_name' },
  saml_mapping: [`${CLAIMS}/givenname`, 'firstName'],
  scim_mapping: 'name.givenName',
};
const familyName = {
  description: 'The user\'s family name',
  label: 'Family name',
  profile_required: false,
  auth0_mapping: 'family_name',
  oidc_mapping: { mapping: 'family_name' },
  saml_mapping: [`${CLAIMS}/surname`, 'lastName'],
  scim_mapping: 'name.familyName',
};
const name = {
  description: 'The user\'s full name',
  label: 'Name',
  profile_required: false,
  auth0_mapping: 'name',
  oidc_mapping: { mapping: 'name' },
  saml_mapping: [`${CLAIMS}/name`],
  scim_mapping: 'displayName',
};

export const USER_ATTRIBUTE_PROFILE_TEMPLATES: readonly TemplateResponse[] = [
  {
    id: 'uapt_standard',
    display_name: 'Standard profile (email, given and family name)',
    template: {
      name: 'Standard profile',
      user_id: { oidc_mapping: 'sub', saml_mapping: [`${CLAIMS}/nameidentifier`], scim_mapping: 'externalId' },
      user_attributes: { email, given_name: givenName, family_name: familyName },
    },
  },
  {
    id: 'uapt_workforce',
    display_name: 'Workforce directory (with Microsoft Entra ID overrides)',
    template: {
      name: 'Workforce directory',
      user_id: {
        oidc_mapping: 'sub',
        saml_mapping: [`${CLAIMS}/nameidentifier`],
        scim_mapping: 'externalId',
        strategy_overrides: { waad: { oidc_mapping: 'oid' }, 'google-apps': { oidc_mapping: 'email' } },
      },
      user_attributes: {
        email: { ...email, strategy_overrides: { waad: { saml_mapping: ['http://schemas.microsoft.com/identity/claims/emailaddress', `${CLAIMS}/upn`] } } },
        given_name: givenName,
        family_name: familyName,
        name,
      },
    },
  },
];
