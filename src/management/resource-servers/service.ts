/** Business rules of resource servers (APIs), behind the Management API routes. */
import { randomBytes } from 'node:crypto';
import { randomString } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import {
  DEFAULT_TOKEN_LIFETIME,
  DEFAULT_TOKEN_LIFETIME_FOR_WEB,
  OPTION_MEMBERS,
  signingSecretContext,
  type ResourceServer,
  type ResourceServerRow,
} from '../../domain/resource-servers/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { CreateResourceServerBody, UpdateResourceServerBody } from './schema.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import type { ResourceServerStore } from '../../domain/resource-servers/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

const notFound = () => managementErrors.notFound('The resource server does not exist', 'inexistent_resource_server');
const conflict = () => managementErrors.conflict('A resource server with the same identifier already exists.');

const bool = (value: boolean | undefined, fallback: boolean): number => ((value ?? fallback) ? 1 : 0);

/**
 * `token_lifetime_for_web` is never above `token_lifetime` (the document's
 * rule): one asked for above it is refused; a default or kept one follows it down.
 */
function webLifetime(tokenLifetime: number, asked: number | undefined, fallback: number): number {
  if (asked !== undefined && asked > tokenLifetime) throw managementErrors.invalidBody('token_lifetime_for_web cannot be greater than token_lifetime.');
  return Math.min(asked ?? fallback, tokenLifetime);
}

/** What ResourceServerService touches. */
export interface ResourceServerServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly resourceServers: ResourceServerStore };
}

export class ResourceServerService {
  constructor(private readonly ctx: ResourceServerServiceContext) {}

  toApi(tenant: Tenant, row: ResourceServerRow): ResourceServer {
    const api: ResourceServer = {
      id: row.id,
      name: row.name,
      is_system: row.is_system === 1,
      identifier: row.identifier,
      scopes: row.scopes,
      signing_alg: row.signing_alg,
      allow_offline_access: row.allow_offline_access === 1,
      skip_consent_for_verifiable_first_party_clients: row.skip_consent_for_verifiable_first_party_clients === 1,
      token_lifetime: row.token_lifetime,
      token_lifetime_for_web: row.token_lifetime_for_web,
      enforce_policies: row.enforce_policies === 1,
      token_dialect: row.token_dialect,
    };
    if (row.signing_secret_enc) api.signing_secret = this.ctx.box.openString(row.signing_secret_enc, signingSecretContext(tenant.id, row.id));
    Object.assign(api, row.options);
    return api;
  }

  /** By id, or by identifier (the service accepts either in the path). */
  async find(tenant: Tenant, idOrIdentifier: string): Promise<ResourceServerRow> {
    const row =
      (await this.ctx.stores.resourceServers.get(tenant.id, idOrIdentifier)) ??
      (await this.ctx.stores.resourceServers.getByIdentifier(tenant.id, idOrIdentifier));
    if (!row) throw notFound();
    return row;
  }

  async create(tenant: Tenant, body: CreateResourceServerBody): Promise<ResourceServer> {
    if (body.identifier === `https://${tenant.domain}/userinfo`) {
      throw managementErrors.invalidBody('The selected identifier is reserved.');
    }
    const id = randomString(24, '0123456789abcdef');
    const now = isoAt(this.ctx.now());
    const signingAlg = body.signing_alg ?? 'RS256';
    const secret = body.signing_secret ?? (signingAlg === 'HS256' ? randomBytes(32).toString('base64url') : undefined);
    const options: Record<string, unknown> = {};
    for (const member of OPTION_MEMBERS) if (body[member] !== undefined) options[member] = body[member];
    const row: ResourceServerRow = {
      tenant_id: tenant.id,
      id,
      identifier: body.identifier,
      name: body.name ?? body.identifier,
      is_system: 0,
      scopes: body.scopes ?? [],
      signing_alg: signingAlg,
      signing_secret_enc: secret === undefined ? null : this.ctx.box.seal(secret, signingSecretContext(tenant.id, id), tenant.id),
      token_lifetime: body.token_lifetime ?? DEFAULT_TOKEN_LIFETIME,
      token_lifetime_for_web: webLifetime(body.token_lifetime ?? DEFAULT_TOKEN_LIFETIME, body.token_lifetime_for_web, DEFAULT_TOKEN_LIFETIME_FOR_WEB),
      allow_offline_access: bool(body.allow_offline_access, false),
      skip_consent_for_verifiable_first_party_clients: bool(body.skip_consent_for_verifiable_first_party_clients, true),
      enforce_policies: bool(body.enforce_policies, false),
      token_dialect: body.token_dialect ?? 'access_token',
      options,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.ctx.stores.resourceServers.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      throw error;
    }
    return this.toApi(tenant, row);
  }

  async update(tenant: Tenant, idOrIdentifier: string, body: UpdateResourceServerBody): Promise<ResourceServer> {
    const row = await this.find(tenant, idOrIdentifier);
    if (row.is_system) throw managementErrors.badRequest('System resource servers cannot be patched.', 'operation_not_supported');
    const changes: Partial<ResourceServerRow> = { updated_at: isoAt(this.ctx.now()) };
    if (body.name !== undefined) changes.name = body.name;
    if (body.scopes !== undefined) changes.scopes = body.scopes;
    if (body.signing_alg !== undefined) changes.signing_alg = body.signing_alg;
    const secret =
      body.signing_secret ??
      (body.signing_alg === 'HS256' && row.signing_secret_enc === null ? randomBytes(32).toString('base64url') : undefined);
    if (secret !== undefined) changes.signing_secret_enc = this.ctx.box.seal(secret, signingSecretContext(tenant.id, row.id), tenant.id);
    if (body.token_lifetime !== undefined) changes.token_lifetime = body.token_lifetime;
    if (body.token_lifetime !== undefined || body.token_lifetime_for_web !== undefined) {
      changes.token_lifetime_for_web = webLifetime(body.token_lifetime ?? row.token_lifetime, body.token_lifetime_for_web, row.token_lifetime_for_web);
    }
    if (body.allow_offline_access !== undefined) changes.allow_offline_access = body.allow_offline_access ? 1 : 0;
    if (body.skip_consent_for_verifiable_first_party_clients !== undefined) {
      changes.skip_consent_for_verifiable_first_party_clients = body.skip_consent_for_verifiable_first_party_clients ? 1 : 0;
    }
    if (body.enforce_policies !== undefined) changes.enforce_policies = body.enforce_policies ? 1 : 0;
    if (body.token_dialect !== undefined) changes.token_dialect = body.token_dialect;
    const options = { ...row.options };
    for (const member of OPTION_MEMBERS) if (body[member] !== undefined) options[member] = body[member];
    changes.options = options;
    await this.ctx.stores.resourceServers.update(tenant.id, row.id, changes);
    return this.toApi(tenant, { ...row, ...changes });
  }

  async delete(tenant: Tenant, idOrIdentifier: string): Promise<void> {
    const row = await this.find(tenant, idOrIdentifier);
    if (row.is_system) throw managementErrors.badRequest('System resource servers cannot be deleted.', 'operation_not_supported');
    await this.ctx.stores.resourceServers.delete(tenant.id, row.id);
  }
}
