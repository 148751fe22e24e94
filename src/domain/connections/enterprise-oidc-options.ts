/**
 * The enterprise strategies built on OpenID Connect, with the service's
 * options (its `ConnectionOptionsOkta`, `…AzureAD`, `…GoogleApps`;
 * federation wire notes §1.3, §1.4), checked on create and update, their
 * provider's discovery document read into `oidc_metadata`, and read by the
 * login as `OidcSettings` (./oidc-options.ts). All log in with the code
 * (`back_channel`), PKCE S256 when the provider advertises it, and the
 * id_token checked as an `oidc` connection's.
 *
 * - `okta`: `domain` (`dev-123456.okta.com`, no scheme) whose
 *   `https://{domain}/.well-known/openid-configuration` is read when
 *   `oidc_metadata` is empty; the `oidc` options otherwise (`type` only
 *   `back_channel`; `attribute_map.mapping_mode` `basic_profile` or `use_map`).
 * - `waad` (Microsoft Entra ID): `tenant_domain` (a domain or the tenant's
 *   id) whose `https://login.microsoftonline.com/{tenant}/v2.0` discovery is
 *   read; `useCommonEndpoint: true` reads the `common` one, whose issuer is
 *   the template `https://login.microsoftonline.com/{tenantid}/v2.0`: the
 *   id_token's `iss` must be it with the token's own `tid` (any tenant,
 *   multi-tenant). `userid_attribute` `oid` (default) or `sub`
 *   (multi-tenant needs `sub`, as the service says);
 *   `should_trust_email_verified_connection` `never_set_emails_as_verified`
 *   (default) or `always_set_emails_as_verified`.
 * - `google-apps` (Google Workspace): `domain` (the Workspace's primary
 *   domain, which the id_token's `hd` claim must name), Google's discovery;
 *   the user id is the email unless `map_user_id_to_id`.
 *
 * The providers' fixed hosts (Microsoft's, Google's) can be replaced by the
 * operator's GATEHOUSE_FEDERATION_ENDPOINTS (`{"waad": {"issuer":
 * "https://…/{tenant}/v2.0"}, "google-apps": {"issuer": …}}`), for tests.
 */
import type { UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import type { FederationEndpointOverrides } from '../../platform/federation-endpoints.js';
import { attributeMapOf, attributeMapProblem } from './attribute-map.js';
import { boolean, isObject, OIDC_RULES, oidcSettings, oneOf, prepareOidcOptions, text, type OidcSettings } from './oidc-options.js';
import type { OptionsProblem } from './strategies/strategy.js';

export const OKTA_STRATEGY = 'okta';
export const WAAD_STRATEGY = 'waad';
export const GOOGLE_APPS_STRATEGY = 'google-apps';

const MICROSOFT = 'https://login.microsoftonline.com/{tenant}/v2.0';
const GOOGLE = 'https://accounts.google.com';
/** A host name with an optional port (Okta's `domain`). */
const HOST = /^(?=.{1,255}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/i;
const host = (v: unknown) => (typeof v === 'string' && HOST.test(v) ? undefined : 'must be a host name, without scheme');

type Rule = (v: unknown) => string | undefined;

function check(strategy: string, options: Record<string, unknown>, rules: Readonly<Record<string, Rule>>, requiredMembers: readonly string[]): OptionsProblem | undefined {
  for (const member of requiredMembers) if (options[member] === undefined) return { property: `options.${member}`, message: `is required for a ${strategy} connection` };
  for (const [key, value] of Object.entries(options)) {
    const problem = (Object.hasOwn(rules, key) ? rules[key] : OIDC_RULES.get(key))?.(value);
    if (problem) return { property: `options.${key}`, message: problem };
  }
  return undefined;
}

/** The options without explicit endpoints: a strategy of a fixed provider reads them from its discovery only. */
function fixedProvider(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { issuer: _i, jwks_uri: _j, authorization_endpoint: _a, token_endpoint: _t, userinfo_endpoint: _u, discovery_url: _d, ...rest } = options;
  return rest;
}

const discoveryOf = (issuer: string) => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
const replaced = (endpoints: FederationEndpointOverrides | undefined, strategy: string, fallback: string) => endpoints?.[strategy]?.issuer ?? fallback;

// --- okta ---------------------------------------------------------------------

export function oktaOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  return check(OKTA_STRATEGY, options, {
    domain: host,
    type: oneOf(['back_channel']),
    attribute_map: (v) => attributeMapProblem(v, ['basic_profile', 'use_map']),
  }, options.token_endpoint_auth_method === 'private_key_jwt' ? ['client_id', 'domain'] : ['client_id', 'client_secret', 'domain']);
}

export function prepareOktaOptions(options: Record<string, unknown>, fetch: UpstreamFetch): Promise<Record<string, unknown>> {
  const url = isObject(options.oidc_metadata) ? undefined : discoveryOf(`https://${String(options.domain)}`);
  return prepareOidcOptions(options, fetch, { url, property: 'options.domain', defaults: { type: 'back_channel', attribute_map: { mapping_mode: 'basic_profile' } } });
}

export const oktaSettings = (options: Readonly<Record<string, unknown>>): OidcSettings => ({ ...oidcSettings(options), type: 'back_channel', attributeMap: attributeMapOf(options.attribute_map, 'basic_profile') });

// --- waad ---------------------------------------------------------------------

export function waadOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  const problem = check(WAAD_STRATEGY, options, {
    client_secret: text(10_000),
    tenant_domain: (v) => (typeof v === 'string' && /^[a-z0-9.-]{1,255}$/i.test(v) ? undefined : 'must be a domain name or a tenant id'),
    useCommonEndpoint: boolean,
    waad_common_endpoint: boolean,
    identity_api: oneOf(['microsoft-identity-platform-v2.0', 'azure-active-directory-v1.0']),
    waad_protocol: oneOf(['openid-connect']),
    userid_attribute: oneOf(['oid', 'sub']),
    should_trust_email_verified_connection: oneOf(['never_set_emails_as_verified', 'always_set_emails_as_verified']),
    scope: (v) => (Array.isArray(v) && v.length <= 100 && v.every((s) => typeof s === 'string' && s.length <= 255) ? undefined : 'must be a list of at most 100 scopes'),
  }, ['client_id', 'client_secret']);
  if (problem) return problem;
  if (options.useCommonEndpoint !== true && options.tenant_domain === undefined) return { property: 'options.tenant_domain', message: 'is required unless useCommonEndpoint is true' };
  if (options.useCommonEndpoint === true && options.userid_attribute !== 'sub') return { property: 'options.userid_attribute', message: 'must be sub with useCommonEndpoint (an oid is unique only within its tenant)' };
  return undefined;
}

export function prepareWaadOptions(options: Record<string, unknown>, fetch: UpstreamFetch, endpoints: FederationEndpointOverrides | undefined): Promise<Record<string, unknown>> {
  const tenant = options.useCommonEndpoint === true ? 'common' : String(options.tenant_domain);
  const url = discoveryOf(replaced(endpoints, WAAD_STRATEGY, MICROSOFT).replace('{tenant}', tenant));
  const prepared: Record<string, unknown> = { ...options, waad_common_endpoint: options.useCommonEndpoint === true };
  // The code flow only; the stored `oidc_metadata` is read again at every update.
  delete prepared.oidc_metadata;
  return prepareOidcOptions(prepared, fetch, { url, property: options.useCommonEndpoint === true ? 'options.useCommonEndpoint' : 'options.tenant_domain', defaults: { userid_attribute: 'oid', should_trust_email_verified_connection: 'never_set_emails_as_verified', identity_api: 'microsoft-identity-platform-v2.0' } });
}

export function waadSettings(options: Readonly<Record<string, unknown>>): OidcSettings {
  const scopes = Array.isArray(options.scope) ? (options.scope as string[]) : [];
  return {
    ...oidcSettings({ ...fixedProvider(options), scope: ['openid', 'profile', 'email', ...scopes].join(' ') }),
    type: 'back_channel',
    pkce: 'S256', // Entra ID supports S256 without advertising it (wire notes §1.4).
    userIdClaim: options.userid_attribute === 'sub' ? 'sub' : 'oid',
    emailVerified: options.should_trust_email_verified_connection === 'always_set_emails_as_verified' ? 'always' : 'never',
  };
}

// --- google-apps --------------------------------------------------------------

export function googleAppsOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  return check(GOOGLE_APPS_STRATEGY, options, {
    client_id: (v) => (typeof v === 'string' && v.length <= 255 ? undefined : 'must be a string of at most 255 characters'),
    domain: host,
    map_user_id_to_id: boolean,
    handle_login_from_social: boolean,
    email: boolean,
    profile: boolean,
    scope: (v) => (Array.isArray(v) && v.length <= 100 && v.every((s) => typeof s === 'string' && s.length <= 255) ? undefined : 'must be a list of at most 100 scopes'),
  }, ['client_id', 'domain']);
}

export function prepareGoogleAppsOptions(options: Record<string, unknown>, fetch: UpstreamFetch, endpoints: FederationEndpointOverrides | undefined): Promise<Record<string, unknown>> {
  const url = discoveryOf(replaced(endpoints, GOOGLE_APPS_STRATEGY, GOOGLE));
  const prepared: Record<string, unknown> = { email: true, profile: true, scope: ['email', 'profile'], handle_login_from_social: true, map_user_id_to_id: false, ...options };
  delete prepared.oidc_metadata;
  return prepareOidcOptions(prepared, fetch, { url, property: 'options.domain', defaults: {} });
}

export function googleAppsSettings(options: Readonly<Record<string, unknown>>): OidcSettings {
  const scopes = Array.isArray(options.scope) ? (options.scope as string[]) : ['email', 'profile'];
  return {
    ...oidcSettings({ ...fixedProvider(options), scope: ['openid', ...scopes].join(' ') }),
    type: 'back_channel',
    userIdFromEmail: options.map_user_id_to_id !== true,
    hostedDomain: String(options.domain),
    domainAliases: [String(options.domain), ...(Array.isArray(options.domain_aliases) ? (options.domain_aliases as string[]) : [])],
  };
}
