/**
 * What the token endpoint reads per request, cached per tenant with the
 * expensive parts done once: the client's secret unsealed, its grant types as
 * a set, an API's scopes parsed, and the scopes a client grant allows already
 * intersected with the API's.
 */
import type { ClientGrantRow } from '../client-grants/model.js';
import type { ClientRow, JsonObject } from '../rows.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Clock } from '../../platform/clock.js';
import type { Stores } from '../stores.js';
import type { ResourceServerRow } from '../resource-servers/model.js';
import { clientSecretContext } from '../tenants/service.js';
import { TenantCache } from '../../platform/cache/tenant-cache.js';
import { methodCredentialIds, parseCredential, requestObjectCredentialIds, type RegisteredCredential } from '../client-credentials/registered.js';
import { consoleClientRow, isConsoleClient } from '../console/client.js';

/** The key of `IssuanceClient.credentials` under which the client's request-object (JAR) keys are. */
export const REQUEST_OBJECT_CREDENTIALS = 'signed_request_object';

/** A client without credentials (client_id only): PKCE is required of it, and its refresh tokens are bound to a DPoP key it proves. */
export const isPublicClient = (client: IssuanceClient) => client.authenticationMethods.length === 0 && client.row.token_endpoint_auth_method === 'none';

/** Seconds a cached entry may be used before it is read again (other processes' writes, without Redis). */
export const ISSUANCE_CACHE_TTL_MS = 10_000;

export interface IssuanceClient {
  row: ClientRow;
  /** The unsealed client secret, or undefined for clients without one. */
  secret: string | undefined;
  grantTypes: ReadonlySet<string>;
  /** Registered `client_authentication_methods` (private_key_jwt, mTLS). */
  authenticationMethods: readonly string[];
  /** The credentials each registered method names, and the request-object keys (REQUEST_OBJECT_CREDENTIALS), parsed (../client-credentials/registered.ts). */
  credentials: ReadonlyMap<string, readonly RegisteredCredential[]>;
  /** The settings the browser flows read, parsed once from the client's configuration. */
  browser: ClientBrowserSettings;
}

export interface ClientBrowserSettings {
  callbacks: readonly string[];
  allowedOrigins: readonly string[];
  webOrigins: readonly string[];
  allowedLogoutUrls: readonly string[];
  ssoDisabled: boolean;
  firstParty: boolean;
  /** `is_token_endpoint_ip_header_trusted`: the token endpoint takes the end-user IP from `auth0-forwarded-for`. */
  trustsIpHeader: boolean;
  /** `cross_origin_authentication`: embedded login through POST /co/authenticate (src/authentication/cross-origin/). */
  crossOriginAuthentication: boolean;
  /** `cross_origin_loc`: the application's page that hands back a cross-origin login's verifier when its cookie was not kept. */
  crossOriginLoc: string | undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The browser-flow settings of a client row; members of the wrong type read as unset. */
export function browserSettings(row: Pick<ClientRow, 'config' | 'is_first_party'>): ClientBrowserSettings {
  const config = row.config;
  return {
    callbacks: strings(config.callbacks),
    allowedOrigins: strings(config.allowed_origins),
    webOrigins: strings(config.web_origins),
    allowedLogoutUrls: strings(config.allowed_logout_urls),
    ssoDisabled: config.sso_disabled === true,
    firstParty: row.is_first_party === 1,
    trustsIpHeader: config.is_token_endpoint_ip_header_trusted === true,
    crossOriginAuthentication: config.cross_origin_authentication === true,
    crossOriginLoc: typeof config.cross_origin_loc === 'string' && config.cross_origin_loc !== '' ? config.cross_origin_loc : undefined,
  };
}

/**
 * Who may obtain tokens for an API (the service's `subject_type_authorization`):
 * users `allow_all` (default), `deny_all`, or `require_client_grant` (a client
 * grant with subject_type `user` for the client); clients
 * `require_client_grant` (default: the client_credentials grant needs a client
 * grant) or `deny_all`.
 */
export interface SubjectPolicies {
  user: 'allow_all' | 'deny_all' | 'require_client_grant';
  client: 'require_client_grant' | 'deny_all';
}

export interface IssuanceApi {
  row: ResourceServerRow;
  scopes: readonly string[];
  scopeSet: ReadonlySet<string>;
  policies: SubjectPolicies;
}

/** The API's subject policies from its `options` column; absent or unknown values read as the defaults. */
function subjectPolicies(options: JsonObject): SubjectPolicies {
  const authorization = options.subject_type_authorization as { user?: { policy?: unknown }; client?: { policy?: unknown } } | undefined;
  const user = authorization?.user?.policy;
  const client = authorization?.client?.policy;
  return {
    user: user === 'deny_all' || user === 'require_client_grant' ? user : 'allow_all',
    client: client === 'deny_all' ? 'deny_all' : 'require_client_grant',
  };
}

export interface IssuanceGrant {
  row: ClientGrantRow;
  /** Scopes the grant allows that the API defines, in the grant's order. */
  allowed: readonly string[];
  allowedSet: ReadonlySet<string>;
  /** `allowed` joined with spaces: the scope of a token that asked for no particular scope. */
  allowedScope: string;
}

/** What the lookups read through: the three stores, the box that opens client secrets, the clock of the cache. */
interface Deps {
  stores: Pick<Stores, 'clients' | 'resourceServers' | 'clientGrants' | 'clientCredentials'>;
  box: SecretBox;
  clock: Clock;
  /**
   * Every host that resolves to the tenant (its domain, aliases, ready custom
   * domains), undefined for an unknown tenant: the built-in console client's
   * callbacks (../console/client.ts). Without it there is no console client.
   */
  consoleHosts?: (tenantId: string) => Promise<readonly string[] | undefined>;
}

export class IssuanceLookups {
  readonly #clients: TenantCache<IssuanceClient | undefined>;
  readonly #apis: TenantCache<IssuanceApi | undefined>;
  readonly #grants: TenantCache<IssuanceGrant | undefined>;

  constructor(private readonly deps: Deps) {
    const now = () => deps.clock.now();
    this.#clients = new TenantCache(ISSUANCE_CACHE_TTL_MS, now);
    this.#apis = new TenantCache(ISSUANCE_CACHE_TTL_MS, now);
    this.#grants = new TenantCache(ISSUANCE_CACHE_TTL_MS, now);
  }

  invalidateTenant(tenantId: string): void {
    this.#clients.invalidateTenant(tenantId);
    this.#apis.invalidateTenant(tenantId);
    this.#grants.invalidateTenant(tenantId);
  }

  client(tenantId: string, clientId: string): Promise<IssuanceClient | undefined> {
    return this.#clients.get(tenantId, clientId, async () => {
      const row = isConsoleClient(tenantId, clientId) ? await this.#consoleClient(tenantId) : await this.deps.stores.clients.get(tenantId, clientId);
      if (!row) return undefined;
      const methods = methodCredentialIds(row.client_authentication_methods);
      const requestObjectKeys = requestObjectCredentialIds(row.config);
      const credentialIds = requestObjectKeys.length ? new Map([...methods, [REQUEST_OBJECT_CREDENTIALS, requestObjectKeys]]) : methods;
      return {
        row,
        secret: row.client_secret_enc === null ? undefined : this.deps.box.openString(row.client_secret_enc, clientSecretContext(tenantId, clientId)),
        grantTypes: new Set(row.grant_types),
        authenticationMethods: [...methods.keys()],
        credentials: await this.#credentials(tenantId, clientId, credentialIds),
        browser: browserSettings(row),
      };
    });
  }

  /** The built-in console client, computed (never stored): its callbacks name every host of the tenant. */
  async #consoleClient(tenantId: string): Promise<ClientRow | undefined> {
    const hosts = await this.deps.consoleHosts?.(tenantId);
    return hosts && consoleClientRow(tenantId, hosts, new Date(0).toISOString());
  }

  /** The credentials each method names (none read for a client that registered no method). */
  async #credentials(tenantId: string, clientId: string, methods: ReadonlyMap<string, readonly string[]>): Promise<Map<string, RegisteredCredential[]>> {
    const byMethod = new Map<string, RegisteredCredential[]>();
    if (methods.size === 0) return byMethod;
    const parsed = new Map<string, RegisteredCredential>();
    for (const row of await this.deps.stores.clientCredentials.list(tenantId, clientId)) {
      const credential = parseCredential(row);
      if (credential) parsed.set(row.id, credential);
    }
    for (const [method, ids] of methods) byMethod.set(method, ids.map((id) => parsed.get(id)).filter((c): c is RegisteredCredential => c !== undefined));
    return byMethod;
  }

  resourceServer(tenantId: string, identifier: string): Promise<IssuanceApi | undefined> {
    return this.#apis.get(tenantId, identifier, async () => {
      const row = await this.deps.stores.resourceServers.getByIdentifier(tenantId, identifier);
      if (!row) return undefined;
      const scopes = row.scopes.map((s) => s.value);
      return { row, scopes, scopeSet: new Set(scopes), policies: subjectPolicies(row.options) };
    });
  }

  /**
   * The client's grant for the API, with the scopes it allows: for tokens of
   * the client itself (`client`, the default) or of its users (`user`).
   */
  grant(tenantId: string, clientId: string, api: IssuanceApi, subjectType: 'client' | 'user' = 'client'): Promise<IssuanceGrant | undefined> {
    return this.#grants.get(tenantId, `${subjectType}\u0000${clientId}\u0000${api.row.identifier}`, async () => {
      const row = await this.deps.stores.clientGrants.findForClient(tenantId, clientId, api.row.identifier, subjectType);
      if (!row) return undefined;
      const defined = new Set(api.scopes);
      const allowed = row.allow_all_scopes === 1 ? [...api.scopes] : row.scope.filter((s) => defined.has(s));
      return { row, allowed, allowedSet: new Set(allowed), allowedScope: allowed.join(' ') };
    });
  }
}
