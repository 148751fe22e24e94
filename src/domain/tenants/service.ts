/**
 * Tenant provisioning and resolution.
 *
 * A new tenant starts with: an RS256 signing key and the next one, the Management API resource
 * server (`https://{domain}/api/v2/`, every management scope), the legacy global
 * client "All Applications", a bootstrap admin client granted every
 * management scope, and (unless asked not to) the service's default database
 * connection `Username-Password-Authentication`, enabled for those clients,
 * with the tenant flag `enable_client_connections` so that clients created
 * later are enabled on it too (src/domain/connections/new-clients.ts). All of
 * it is written in one transaction.
 */
import { isValidDomain } from '../../platform/config.js';
import { newClientId, newClientSecret, newPrefixedId, randomString } from '../../platform/crypto/ids.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ClientRow } from '../rows.js';
import { columnsFromConfig, newClientConfig, type ClientConfig } from '../clients/model.js';
import type { Keyring } from '../keys/keyring.js';
import { MANAGEMENT_SCOPES } from '../management-api/scopes.js';
import { DEFAULT_TOKEN_LIFETIME, DEFAULT_TOKEN_LIFETIME_FOR_WEB } from '../resource-servers/model.js';
import { managementAudience, tenantFromRow, throughAlias, throughCustomDomain, type Tenant, type TenantSettings } from './tenant.js';
import type { StartingConnection, TenantStore } from './store.js';
import { newConnectionId } from '../connections/model.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import type { CustomDomainStore } from '../custom-domains/store.js';

export function clientSecretContext(tenantId: string, clientId: string): string {
  return `client_secret:${tenantId}:${clientId}`;
}

export class TenantError extends Error {}

export interface CreateTenantInput {
  domain: string;
  name?: string;
  /** Fixed admin credentials (GATEHOUSE_ADMIN_CLIENT_ID/SECRET); generated when absent. */
  adminClientId?: string;
  adminClientSecret?: string;
  /**
   * Whether the tenant starts with the default database connection and the
   * `enable_client_connections` flag, as the service's new tenants do (default
   * true; GATEHOUSE_DEFAULT_CONNECTION=0 turns it off).
   */
  defaultConnection?: boolean;
}

/** The database connection every new tenant of the service starts with. */
export const DEFAULT_CONNECTION_NAME = 'Username-Password-Authentication';

export interface CreatedTenant {
  tenant: Tenant;
  adminClientId: string;
  adminClientSecret: string;
}

/** `Read Client Grants` for `read:client_grants`. */
function describeScope(scope: string): string {
  const [verb = '', object = ''] = scope.split(':');
  const words = `${verb} ${object.replace(/_/g, ' ')}`.split(' ').filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

/** A tenant name from a domain: its first label, lower case, [a-z0-9-]. */
export function nameFromDomain(domain: string): string {
  const label = domain.split(':')[0]!.split('.')[0]!.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return label.replace(/^-+|-+$/g, '') || 'tenant';
}

/**
 * `Username-Password-Authentication` as the service creates it for a new
 * tenant: a database connection with the `good` password policy, enabled for
 * the tenant's clients.
 */
function defaultConnection(tenantId: string, createdAt: string, clientIds: string[]): StartingConnection {
  return {
    row: {
      tenant_id: tenantId,
      id: newConnectionId(),
      name: DEFAULT_CONNECTION_NAME,
      display_name: null,
      strategy: 'auth0',
      options: { passwordPolicy: 'good', brute_force_protection: true },
      is_domain_connection: 0,
      realms: [DEFAULT_CONNECTION_NAME],
      metadata: {},
      created_at: createdAt,
      updated_at: createdAt,
    },
    enabledClients: clientIds,
  };
}

export interface TenantServiceOptions {
  /** Whether new tenants start with the default connection unless told otherwise (GATEHOUSE_DEFAULT_CONNECTION; default true). */
  defaultConnection?: boolean;
  /**
   * Further hosts of a tenant, alias → its domain: `127.0.0.1:PORT` and
   * `[::1]:PORT` for the default tenant `localhost:PORT` (src/app/loopback-aliases.ts).
   * A request through an alias is answered as through a custom domain: its
   * issuer names the host used (discovery's issuer must equal the URL it was
   * fetched from, OpenID Connect Discovery §4.3), and the canonical issuer is
   * accepted beside it; unlike a custom domain it has no `mtls.` edge.
   */
  aliases?: ReadonlyMap<string, string>;
}

export class TenantService {
  readonly #byDomain = new Map<string, { tenant: Tenant | undefined; at: number }>();

  constructor(
    private readonly store: TenantStore,
    private readonly keyring: Keyring,
    private readonly box: SecretBox,
    private readonly now: () => number,
    /** Custom domains: hosts that alias a tenant once verified. */
    private readonly customDomains?: Pick<CustomDomainStore, 'findReady'>,
    private readonly options: TenantServiceOptions = {},
  ) {}

  async create(input: CreateTenantInput): Promise<CreatedTenant> {
    const domain = input.domain.toLowerCase();
    if (!isValidDomain(domain)) throw new TenantError(`"${input.domain}" is not a valid domain (host with an optional :port)`);
    let name = input.name ?? nameFromDomain(domain);
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) {
      throw new TenantError(`tenant name "${name}" must be 1 to 63 characters of [a-z0-9-], not starting or ending with "-"`);
    }
    if (await this.store.getByDomain(domain)) throw new TenantError(`a tenant already serves ${domain}`);
    if (await this.store.getByName(name)) {
      if (input.name !== undefined) throw new TenantError(`a tenant named "${name}" exists; choose another with --name`);
      // A name derived from the domain (localhost:3000 and localhost:3001 both give "localhost") takes the first free suffix.
      name = await this.freeName(name);
    }

    const tenantId = newPrefixedId('ten');
    const createdAt = isoAt(this.now());
    const adminClientId = input.adminClientId ?? newClientId();
    const adminClientSecret = input.adminClientSecret ?? newClientSecret();
    const globalClientId = newClientId();
    const withConnection = (input.defaultConnection ?? this.options.defaultConnection) !== false;
    const settings: TenantSettings = { admin_client_id: adminClientId, ...(withConnection && { enable_client_connections: true }) };
    const audience = managementAudience({ domain });

    const client = (clientId: string, secret: string, global: boolean, body: ClientConfig): ClientRow => {
      const config = newClientConfig(body);
      return {
        tenant_id: tenantId,
        client_id: clientId,
        global: global ? 1 : 0,
        ...columnsFromConfig(config),
        client_secret_enc: this.box.seal(secret, clientSecretContext(tenantId, clientId), tenantId),
        created_at: createdAt,
        updated_at: createdAt,
        config,
      };
    };

    try {
      await this.store.create({
        tenant: { id: tenantId, name, domain, settings, created_at: createdAt },
        // The current key and the next one, published before it signs (src/domain/keys/keyring.ts).
        signingKeys: [await this.keyring.generate(tenantId, domain, 'current'), await this.keyring.generate(tenantId, domain, 'next')],
        clients: [
          // The legacy tenant-wide client (spec: `global`, "All Applications").
          client(globalClientId, newClientSecret(), true, { name: 'All Applications', is_first_party: true }),
          client(adminClientId, adminClientSecret, false, {
            name: 'Gatehouse Admin',
            description: 'Bootstrap client of the Management API, created with the tenant',
            app_type: 'non_interactive',
            is_first_party: true,
            oidc_conformant: true,
            token_endpoint_auth_method: 'client_secret_post',
            grant_types: ['client_credentials'],
          }),
        ],
        resourceServers: [
          {
            tenant_id: tenantId,
            id: randomString(24, '0123456789abcdef'),
            identifier: audience,
            name: 'Auth0 Management API',
            is_system: 1,
            scopes: MANAGEMENT_SCOPES.map((value) => ({ value, description: describeScope(value) })),
            signing_alg: 'RS256',
            signing_secret_enc: null,
            token_lifetime: DEFAULT_TOKEN_LIFETIME,
            token_lifetime_for_web: DEFAULT_TOKEN_LIFETIME_FOR_WEB,
            allow_offline_access: 0,
            skip_consent_for_verifiable_first_party_clients: 1,
            enforce_policies: 0,
            token_dialect: 'access_token',
            options: {},
            created_at: createdAt,
            updated_at: createdAt,
          },
        ],
        clientGrants: [
          {
            tenant_id: tenantId,
            id: newPrefixedId('cgr'),
            client_id: adminClientId,
            audience,
            scope: [...MANAGEMENT_SCOPES],
            organization_usage: 'deny',
            allow_any_organization: 0,
            is_system: 0,
            subject_type: 'client',
            authorization_details_types: [],
            allow_all_scopes: null,
            default_for: null,
            created_at: createdAt,
          },
        ],
        connections: withConnection ? [defaultConnection(tenantId, createdAt, [globalClientId, adminClientId])] : [],
      });
    } catch (error) {
      // Another process created the same domain or name between our check and the insert.
      if (isUniqueViolation(error)) {
        // The "no such tenant" remembered by the look-up before the insert is wrong now.
        this.#byDomain.delete(domain);
        throw new TenantError(`a tenant for ${domain} or named "${name}" already exists`);
      }
      throw error;
    }
    this.#byDomain.delete(domain);
    const tenant = await this.byDomain(domain);
    if (!tenant) throw new Error('tenant vanished after creation');
    return { tenant, adminClientId, adminClientSecret };
  }

  /** `base-2`, `base-3`, …: the first name no tenant has. */
  private async freeName(base: string): Promise<string> {
    for (let n = 2; n < 1000; n++) {
      const candidate = `${base.slice(0, 63 - String(n).length - 1)}-${n}`;
      if (!(await this.store.getByName(candidate))) return candidate;
    }
    throw new TenantError(`no free tenant name after "${base}"; choose one with --name`);
  }

  /**
   * The tenant serving `domain` (its own, or a ready custom domain of it),
   * cached for 30 s (5 s for unknown domains) so that the hot path does not
   * read the tenants table per request.
   */
  async byDomain(domain: string): Promise<Tenant | undefined> {
    const key = domain.toLowerCase();
    const cached = this.#byDomain.get(key);
    const now = this.now();
    if (cached && now - cached.at < (cached.tenant ? 30_000 : 5_000)) return cached.tenant;
    const row = await this.store.getByDomain(key);
    let tenant = row ? tenantFromRow(row) : undefined;
    const aliased = tenant ? undefined : this.options.aliases?.get(key);
    if (aliased !== undefined) {
      const owner = await this.store.getByDomain(aliased);
      if (owner) tenant = throughAlias(tenantFromRow(owner), key);
    }
    if (!tenant && this.customDomains) {
      // A ready custom domain, or its `mtls.` host where the edge asks for client certificates (RFC 8705 §5).
      const host = key.startsWith('mtls.') ? key.slice('mtls.'.length) : key;
      const custom = (await this.customDomains.findReady(key)) ?? (host !== key ? await this.customDomains.findReady(host) : undefined);
      const owner = custom ? await this.store.getById(custom.tenant_id) : undefined;
      if (owner && custom) tenant = throughCustomDomain(tenantFromRow(owner), custom.domain);
    }
    if (this.#byDomain.size > 10_000) this.#byDomain.clear();
    this.#byDomain.set(key, { tenant, at: now });
    return tenant;
  }

  async list(): Promise<Tenant[]> {
    return (await this.store.list()).map(tenantFromRow);
  }

  /** Writes the settings; the caller invalidates the tenant so every process rereads them. */
  async updateSettings(tenant: Tenant, settings: TenantSettings): Promise<void> {
    await this.store.updateSettings(tenant.id, settings);
    this.forget(tenant.id);
  }

  /**
   * Drops the cached copy of a tenant (its settings or custom domains changed
   * here or in another process), and the hosts remembered as unknown, which
   * may be its new custom domain.
   */
  forget(tenantId: string): void {
    for (const [domain, entry] of this.#byDomain) if (entry.tenant === undefined || entry.tenant.id === tenantId) this.#byDomain.delete(domain);
  }
}
