/**
 * The options of OpenID Connect connections (`strategy: "oidc"`), as the
 * service stores and returns them (its `ConnectionOptionsOIDC`; federation
 * wire notes §1.4): checked on create and update (`oidcOptionsProblem`;
 * unknown members are kept, as the service's schema allows), completed with
 * the provider's discovery document (`oidc_metadata`, §1.3) and read by the
 * login (`oidcSettings`).
 *
 * - `client_id` (required), `client_secret` (returned by the Management API
 *   as the service does, §1.2; needed by `back_channel`);
 * - `type`: `front_channel` (default: `response_type=id_token`,
 *   `response_mode=form_post`) or `back_channel` (`response_type=code`);
 * - `discovery_url` or `issuer` (its `/.well-known/openid-configuration` is
 *   read) or a full `oidc_metadata`; explicit `issuer`, `jwks_uri`,
 *   `authorization_endpoint`, `token_endpoint`, `userinfo_endpoint` win over
 *   the discovered ones; every URL https;
 * - `scope`: a space-separated string (`openid` always added);
 * - `connection_settings.pkce`: `auto` (S256 when the provider advertises
 *   it), `S256`, `plain` (sent as S256: plain gives nothing), `disabled`;
 * - `send_back_channel_nonce`: a nonce on `back_channel` too (there is
 *   always one on `front_channel`);
 * - `token_endpoint_auth_method`: `client_secret_post` (default) or
 *   `private_key_jwt` (a client assertion signed with the connection's
 *   current key, ./keys.ts; `token_endpoint_jwtca_aud_format` `issuer`
 *   (default) or `token_endpoint` names its `aud`; the key's algorithm, or
 *   `token_endpoint_auth_signing_alg`, signs it);
 * - `id_token_signed_response_algs`: the id_token algorithms accepted
 *   (default the provider's advertised asymmetric ones);
 * - `attribute_map`: `mapping_mode` `bind_all` (default), `use_map` (its
 *   `attributes`, `userinfo_scope`), `basic_profile` (./attribute-map.ts);
 * - `upstream_params`, `set_user_root_attributes`,
 *   `domain_aliases`, `non_persistent_attrs`, `icon_url`, `tenant_domain`.
 */
import type { UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import { attributeMapOf, attributeMapProblem, needsUserinfo, type AttributeMap } from './attribute-map.js';
import { RSA_KEY_ALGS } from './keys.js';
import { StrategyOptionsError, type OptionsProblem } from './strategies/strategy.js';

export const OIDC_STRATEGY = 'oidc';
export const ID_TOKEN_ALGS = ['ES256', 'ES384', 'PS256', 'PS384', 'RS256', 'RS384', 'RS512'] as const;
const UPSTREAM_ALIASES = ['acr_values', 'audience', 'client_id', 'display', 'id_token_hint', 'login_hint', 'max_age', 'prompt', 'resource', 'response_mode', 'response_type', 'ui_locales'];
export type RootAttributesSync = 'on_each_login' | 'on_first_login' | 'never_on_login';

export interface OidcSettings {
  clientId: string;
  clientSecret?: string;
  type: 'front_channel' | 'back_channel';
  metadata: OidcMetadata;
  scope: string;
  pkce: 'auto' | 'S256' | 'disabled';
  backChannelNonce: boolean;
  idTokenAlgs?: readonly string[];
  upstreamParams: Readonly<Record<string, { value: string } | { alias: string }>>;
  sync: RootAttributesSync;
  domainAliases: readonly string[];
  nonPersistent: ReadonlySet<string>;
  /** The claim that names the user at the provider (`sub`; Entra ID's `oid` by default). */
  userIdClaim: string;
  /** Whether `email_verified` is read from the claims (`claim`), or set regardless (Entra ID's `never`/`always`). */
  emailVerified: 'claim' | 'never' | 'always';
  /** The user id is the email (Google Workspace without `map_user_id_to_id`). */
  userIdFromEmail: boolean;
  /** The Google Workspace domain the `hd` claim must name. */
  hostedDomain?: string;
  /** How the claims become the profile (./attribute-map.ts); the userinfo endpoint is called when it needs it. */
  attributeMap: AttributeMap;
  /**
   * How Gatehouse authenticates to the token endpoint: the client secret
   * (`client_secret_post`), or a client assertion signed with the
   * connection's current key (`private_key_jwt`, ./keys.ts), its `aud` the
   * issuer (default) or the token endpoint.
   */
  clientAuth: { method: 'client_secret_post' } | { method: 'private_key_jwt'; audience: 'issuer' | 'token_endpoint'; alg?: string };
}

export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  jwks_uri: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  code_challenge_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  [member: string]: unknown;
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const httpsUrl = (max: number) => (v: unknown) =>
  typeof v === 'string' && v.length >= 8 && v.length <= max && /^https:\/\//.test(v) && URL.canParse(v) ? undefined : `must be an https URL of at most ${max} characters`;
export const text = (max: number) => (v: unknown) => (typeof v === 'string' && v.length <= max ? undefined : `must be a string of at most ${max} characters`);
export const oneOf = (values: readonly string[]) => (v: unknown) => (typeof v === 'string' && values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);
export const boolean = (v: unknown) => (typeof v === 'boolean' ? undefined : 'must be a boolean');
const HOSTNAME = /^(?=.{1,253}$)(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export const OIDC_RULES: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map(Object.entries({
  client_id: (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 255 ? undefined : 'must be a non-empty string of at most 255 characters'),
  client_secret: text(700),
  type: oneOf(['front_channel', 'back_channel']),
  discovery_url: httpsUrl(255),
  issuer: httpsUrl(255),
  jwks_uri: httpsUrl(255),
  authorization_endpoint: httpsUrl(2083),
  token_endpoint: httpsUrl(255),
  userinfo_endpoint: httpsUrl(255),
  icon_url: httpsUrl(255),
  tenant_domain: text(255),
  scope: text(255),
  send_back_channel_nonce: boolean,
  token_endpoint_auth_method: (v: unknown) => (v === null || v === 'client_secret_post' || v === 'private_key_jwt' ? undefined : 'must be client_secret_post or private_key_jwt'),
  token_endpoint_auth_signing_alg: (v: unknown) => (v === null ? undefined : oneOf(RSA_KEY_ALGS)(v) === undefined ? undefined : `must be one of ${RSA_KEY_ALGS.join(', ')} (ES256 and ES384 are not supported by Gatehouse yet)`),
  token_endpoint_jwtca_aud_format: (v: unknown) => (v === null ? undefined : oneOf(['issuer', 'token_endpoint'])(v)),
  id_token_signed_response_algs: (v: unknown) =>
    v === null || (Array.isArray(v) && v.every((a) => (ID_TOKEN_ALGS as readonly unknown[]).includes(a))) ? undefined : `must be a list of ${ID_TOKEN_ALGS.join(', ')}`,
  connection_settings: (v: unknown) => (isObject(v) && (v.pkce === undefined || oneOf(['auto', 'S256', 'plain', 'disabled'])(v.pkce) === undefined) ? undefined : 'pkce must be one of auto, S256, plain, disabled'),
  set_user_root_attributes: oneOf(['on_each_login', 'on_first_login', 'never_on_login']),
  domain_aliases: (v: unknown) => (Array.isArray(v) && v.length <= 1000 && v.every((d) => typeof d === 'string' && HOSTNAME.test(d)) ? undefined : 'must be a list of at most 1000 domain names'),
  non_persistent_attrs: (v: unknown) => (Array.isArray(v) && v.length <= 96 && v.every((a) => typeof a === 'string' && a.length <= 255) ? undefined : 'must be a list of at most 96 attribute names'),
  upstream_params: (v: unknown) => {
    if (v === null) return undefined;
    if (!isObject(v) || Object.keys(v).length > 50) return 'must be an object of at most 50 parameters';
    for (const [name, p] of Object.entries(v)) {
      if (!isObject(p) || Object.keys(p).length !== 1) return `${name} must be {"value": …} or {"alias": …}`;
      if ('value' in p && text(255)(p.value) === undefined) continue;
      if ('alias' in p && UPSTREAM_ALIASES.includes(p.alias as string)) continue;
      return `${name} must be {"value": a string} or {"alias": one of ${UPSTREAM_ALIASES.join(', ')}}`;
    }
    return undefined;
  },
  attribute_map: (v: unknown) => attributeMapProblem(v, ['bind_all', 'use_map', 'basic_profile']),
  oidc_metadata: (v: unknown) => (isObject(v) ? undefined : 'must be an object'),
}));

const METADATA_REQUIRED = ['issuer', 'authorization_endpoint', 'jwks_uri'] as const;

/** What is wrong with the options of an oidc connection; undefined when nothing is. */
export function oidcOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  if (options.client_id === undefined) return { property: 'options.client_id', message: 'is required for an oidc connection' };
  for (const [key, value] of Object.entries(options)) {
    const problem = OIDC_RULES.get(key)?.(value);
    if (problem) return { property: `options.${key}`, message: problem };
  }
  if (options.discovery_url === undefined && options.issuer === undefined && options.oidc_metadata === undefined) {
    return { property: 'options.discovery_url', message: 'is required (or issuer, or oidc_metadata)' };
  }
  if (options.type === 'back_channel' && typeof options.client_secret !== 'string' && options.token_endpoint_auth_method !== 'private_key_jwt') return { property: 'options.client_secret', message: 'is required for back_channel (unless token_endpoint_auth_method is private_key_jwt)' };
  return userinfoProblem(options, options.type === 'back_channel');
}

/** A map reading `context.userinfo` needs the code flow's access token: `back_channel` only. */
export function userinfoProblem(options: Record<string, unknown>, backChannel: boolean): OptionsProblem | undefined {
  if (!backChannel && needsUserinfo(attributeMapOf(options.attribute_map, 'bind_all'))) {
    return { property: 'options.attribute_map', message: 'refers to context.userinfo, which needs type back_channel (the userinfo endpoint is called with the access token of the code flow)' };
  }
  return undefined;
}

export function metadataProblem(metadata: unknown): string | undefined {
  if (!isObject(metadata)) return 'is not a JSON object';
  for (const member of METADATA_REQUIRED) if (httpsUrl(2083)(metadata[member]) !== undefined) return `has no https ${member}`;
  return undefined;
}

/** The discovery URL of the options: `discovery_url`, else the issuer's well-known document. */
function discoveryUrl(options: Record<string, unknown>): string | undefined {
  if (typeof options.discovery_url === 'string') return options.discovery_url;
  if (typeof options.issuer === 'string' && !isObject(options.oidc_metadata)) return `${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  return undefined;
}

/** Reads the provider's discovery document into `oidc_metadata` (on create and update); defaults as the service adds them. */
export async function prepareOidcOptions(
  options: Record<string, unknown>,
  fetch: UpstreamFetch,
  discovery: { url: string | undefined; property: string; defaults: Record<string, unknown> } = {
    url: discoveryUrl(options),
    property: options.discovery_url !== undefined ? 'options.discovery_url' : 'options.issuer',
    defaults: { attribute_map: { mapping_mode: 'bind_all' } },
  },
): Promise<Record<string, unknown>> {
  const prepared: Record<string, unknown> = { ...discovery.defaults, ...options, schema_version: 'oidc-V4' };
  const { url, property } = discovery;
  if (url !== undefined) {
    let metadata: unknown;
    try {
      const answer = await fetch(url, { headers: { accept: 'application/json' } });
      if (answer.status !== 200) throw new Error(`the provider answered ${answer.status}`);
      metadata = await answer.json();
    } catch (error) {
      throw new StrategyOptionsError({ property, message: `the discovery document could not be read (${(error as Error).message})` });
    }
    const problem = metadataProblem(metadata);
    if (problem) throw new StrategyOptionsError({ property, message: `the discovery document ${problem}` });
    prepared.oidc_metadata = metadata;
  }
  const problem = metadataProblem(prepared.oidc_metadata);
  if (problem) throw new StrategyOptionsError({ property: 'options.oidc_metadata', message: problem });
  if (needsUserinfo(attributeMapOf(prepared.attribute_map, 'bind_all')) && httpsUrl(255)(prepared.userinfo_endpoint ?? (prepared.oidc_metadata as OidcMetadata).userinfo_endpoint) !== undefined) {
    throw new StrategyOptionsError({ property: 'options.attribute_map', message: 'refers to context.userinfo, but the provider has no https userinfo_endpoint' });
  }
  return prepared;
}

/** The settings of an oidc connection's (checked, prepared) options. */
export function oidcSettings(options: Readonly<Record<string, unknown>>): OidcSettings {
  const discovered = (isObject(options.oidc_metadata) ? options.oidc_metadata : {}) as OidcMetadata;
  const metadata: OidcMetadata = { ...discovered };
  for (const member of ['issuer', 'authorization_endpoint', 'jwks_uri', 'token_endpoint', 'userinfo_endpoint'] as const) {
    if (typeof options[member] === 'string') metadata[member] = options[member];
  }
  const attributeMap = attributeMapOf(options.attribute_map, 'bind_all');
  const scopes = new Set(['openid', ...String(options.scope ?? 'openid profile email').split(' ').filter(Boolean)]);
  if (needsUserinfo(attributeMap)) for (const scope of (attributeMap.userinfoScope ?? '').split(' ').filter(Boolean)) scopes.add(scope);
  const pkce = isObject(options.connection_settings) ? options.connection_settings.pkce : undefined;
  return {
    clientId: String(options.client_id),
    ...(typeof options.client_secret === 'string' && { clientSecret: options.client_secret }),
    type: options.type === 'back_channel' ? 'back_channel' : 'front_channel',
    metadata,
    scope: [...scopes].join(' '),
    pkce: pkce === 'disabled' ? 'disabled' : pkce === 'S256' || pkce === 'plain' ? 'S256' : 'auto',
    backChannelNonce: options.send_back_channel_nonce === true,
    ...(Array.isArray(options.id_token_signed_response_algs) && options.id_token_signed_response_algs.length > 0 && { idTokenAlgs: options.id_token_signed_response_algs as string[] }),
    upstreamParams: isObject(options.upstream_params) ? (options.upstream_params as OidcSettings['upstreamParams']) : {},
    sync: (options.set_user_root_attributes as RootAttributesSync | undefined) ?? 'on_each_login',
    domainAliases: Array.isArray(options.domain_aliases) ? (options.domain_aliases as string[]) : [],
    nonPersistent: new Set(Array.isArray(options.non_persistent_attrs) ? (options.non_persistent_attrs as string[]) : []),
    userIdClaim: 'sub',
    emailVerified: 'claim',
    userIdFromEmail: false,
    attributeMap,
    clientAuth: options.token_endpoint_auth_method === 'private_key_jwt' ? { method: 'private_key_jwt', audience: options.token_endpoint_jwtca_aud_format === 'token_endpoint' ? 'token_endpoint' : 'issuer', ...(typeof options.token_endpoint_auth_signing_alg === 'string' && { alg: options.token_endpoint_auth_signing_alg }) } : { method: 'client_secret_post' },
  };
}

/** Whether the provider answers now: its JWKS (which every login reads) fetched through the outbound guard; undefined when it does, else why not. */
export async function oidcProviderStatus(options: Readonly<Record<string, unknown>>, fetch: UpstreamFetch): Promise<string | undefined> {
  const { jwks_uri } = oidcSettings(options).metadata;
  try {
    const answer = await fetch(jwks_uri, { headers: { accept: 'application/json' } });
    if (answer.status !== 200) return `The identity provider's JWKS answered ${answer.status}.`;
    const keys = ((await answer.json()) as { keys?: unknown }).keys;
    return Array.isArray(keys) ? undefined : 'The identity provider\'s JWKS holds no keys.';
  } catch (error) {
    return `The identity provider could not be reached (${(error as Error).message}).`;
  }
}
