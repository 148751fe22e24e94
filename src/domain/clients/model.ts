/**
 * The client (application) model of the specification's Client table: the
 * defaults a new client gets, and which fields each Management API scope may
 * read (spec, Authentication part, item 3).
 */
import type { ClientAuthenticationMethods, ClientConfig, ClientRow } from '../rows.js';

/** `clients.config`: every member except client_id, client_secret, tenant and global. */
export type { ClientConfig } from '../rows.js';

/** Visible with any of the list's scopes. */
export const SUMMARY_FIELDS: ReadonlySet<string> = new Set(['client_id', 'app_type', 'name', 'description']);

/** Need `read:client_keys` or `read:client_credentials`. */
export const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set([
  'client_secret',
  'encryption_key',
  'client_authentication_methods',
  'signing_keys',
  'signing_key',
]);

export const CONFIG_SCOPES = ['read:clients', 'read:client_keys'] as const;
export const CREDENTIAL_SCOPES = ['read:client_keys', 'read:client_credentials'] as const;

/** Every other field is configuration: it needs `read:clients` or `read:client_keys`. */
export function scopesToRead(field: string): readonly string[] {
  if (SUMMARY_FIELDS.has(field)) return ['read:clients', 'read:client_keys', 'read:client_credentials', 'read:client_summary'];
  if (CREDENTIAL_FIELDS.has(field)) return CREDENTIAL_SCOPES;
  return CONFIG_SCOPES;
}

export interface FieldAccess {
  config: boolean;
  credentials: boolean;
}

export function fieldAccess(scopes: ReadonlySet<string>): FieldAccess {
  return {
    config: CONFIG_SCOPES.some((s) => scopes.has(s)),
    credentials: CREDENTIAL_SCOPES.some((s) => scopes.has(s)),
  };
}

export function canRead(field: string, access: FieldAccess): boolean {
  if (SUMMARY_FIELDS.has(field)) return true;
  if (CREDENTIAL_FIELDS.has(field)) return access.credentials;
  return access.config;
}

export const REFRESH_TOKEN_DEFAULT = {
  rotation_type: 'non-rotating',
  expiration_type: 'non-expiring',
  leeway: 0,
  token_lifetime: 2_592_000,
  infinite_token_lifetime: true,
  idle_token_lifetime: 1_296_000,
  infinite_idle_token_lifetime: true,
};

/**
 * `jwt_configuration.secret_encoded` is set when the client is created: an
 * update whose `jwt_configuration` leaves it out keeps the stored value
 * (auth0-deploy-cli strips it from every update as a field the service does
 * not take there, and sends the rest of `jwt_configuration` back).
 */
export function keepSecretEncoded(stored: ClientConfig, updated: ClientConfig): void {
  const before = stored.jwt_configuration as Record<string, unknown> | undefined;
  const after = updated.jwt_configuration as Record<string, unknown> | undefined;
  if (after && typeof after === 'object' && !('secret_encoded' in after) && before?.secret_encoded !== undefined) {
    updated.jwt_configuration = { ...after, secret_encoded: before.secret_encoded };
  }
}

/** The application types whose code runs where a secret cannot be kept: public clients by default. */
const PUBLIC_APP_TYPES: ReadonlySet<string> = new Set(['spa', 'native']);

/**
 * The token endpoint authentication method of a new client that names none:
 * `none` for single-page and native applications, `client_secret_post` for
 * every other (regular web, machine to machine, or no type), as the
 * service's dashboard creates them. The service's recorded 201 for a body
 * without `app_type` (management-api-wire-notes §5) carries the
 * `client_credentials` grant, which only a confidential client gets; its
 * default for `spa` and `native` through the API is not recorded, and
 * following the dashboard is the plausible choice (UNCONFIRMED).
 */
function defaultAuthMethod(appType: unknown): string {
  return typeof appType === 'string' && PUBLIC_APP_TYPES.has(appType) ? 'none' : 'client_secret_post';
}

/**
 * The configuration of a new client: the defaults, then the request's
 * members over them. `is_first_party` defaults to true, as the OpenAPI
 * document says and the service's recorded 201 shows
 * (management-api-wire-notes §5); `token_endpoint_auth_method` by the
 * application type (`defaultAuthMethod`); `jwt_configuration.secret_encoded`
 * true as the specification states. Other defaults follow the service's
 * recorded responses (grant types, refresh token settings).
 */
export function newClientConfig(body: ClientConfig): ClientConfig {
  const authMethod = (body.token_endpoint_auth_method as string | undefined) ?? defaultAuthMethod(body.app_type);
  const isFirstParty = (body.is_first_party as boolean | undefined) ?? true;
  const config: ClientConfig = {
    is_token_endpoint_ip_header_trusted: false,
    name: body.name,
    description: '',
    is_first_party: isFirstParty,
    oidc_conformant: false,
    sso: false,
    sso_disabled: false,
    cross_origin_authentication: false,
    token_endpoint_auth_method: authMethod,
    grant_types:
      authMethod === 'none'
        ? ['authorization_code', 'implicit', 'refresh_token']
        : ['authorization_code', 'implicit', 'refresh_token', 'client_credentials'],
    jwt_configuration: { lifetime_in_seconds: 36_000, secret_encoded: true },
    refresh_token: REFRESH_TOKEN_DEFAULT,
    organization_usage: 'deny',
    organization_require_behavior: 'no_prompt',
    custom_login_page_on: true,
    custom_login_page: '',
    custom_login_page_preview: '',
    form_template: '',
    require_pushed_authorization_requests: false,
    require_proof_of_possession: false,
  };
  if (!isFirstParty && body.third_party_security_mode === 'strict') config.redirection_policy = 'open_redirect_protection';
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'client_secret') continue;
    if (key === 'jwt_configuration' && value && typeof value === 'object') {
      config.jwt_configuration = { ...(config.jwt_configuration as object), ...(value as object) };
    } else {
      config[key] = value;
    }
  }
  return config;
}

/** The queryable columns of a client row, derived from its configuration (the one source of truth). */
export function columnsFromConfig(
  config: ClientConfig,
): Pick<
  ClientRow,
  'name' | 'description' | 'app_type' | 'is_first_party' | 'token_endpoint_auth_method' | 'client_authentication_methods' | 'grant_types' | 'external_client_id'
> {
  const methods = config.client_authentication_methods;
  return {
    name: String(config.name ?? ''),
    description: String(config.description ?? ''),
    app_type: typeof config.app_type === 'string' ? config.app_type : null,
    is_first_party: config.is_first_party === true ? 1 : 0,
    token_endpoint_auth_method: String(config.token_endpoint_auth_method ?? 'none'),
    client_authentication_methods: methods && typeof methods === 'object' ? (methods as ClientAuthenticationMethods) : null,
    grant_types: Array.isArray(config.grant_types) ? (config.grant_types as string[]).filter((g) => typeof g === 'string') : [],
    external_client_id: typeof config.external_client_id === 'string' && config.external_client_id !== '' ? config.external_client_id : null,
  };
}
