/** Business rules of clients (applications), behind the Management API routes. */
import { enableOnEveryConnection, enablesNewClients } from '../../domain/connections/new-clients.js';
import { newClientId, newClientSecret } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import {
  canRead,
  columnsFromConfig,
  keepSecretEncoded,
  newClientConfig,
  scopesToRead,
  type ClientConfig,
  type FieldAccess,
} from '../../domain/clients/model.js';
import type { ClientRow } from '../../domain/rows.js';
import type { TenantKeys, Keyring } from '../../domain/keys/keyring.js';
import { clientSecretContext } from '../../domain/tenants/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { ManagementPrincipal } from '../auth.js';
import { sealCheckpoint, type Paging } from '../paging.js';
import { CLIENT_RESPONSE_FIELDS, describeClientProperty, type ClientBody, type ClientResponseBody } from './schema.js';
import { type OrganizationStore } from '../../domain/organizations/store.js';
import type { ClientFilter, ClientOffsetAnchors, ListedClient, ClientStore } from '../../domain/clients/store.js';
import { isoAt } from '../../platform/clock.js';
import { resolveCredentialReferences } from './credentials/service.js';
import { checkProfileReferences, type ProfileReferenceStores } from './profile-references.js';
import { notFound } from './errors.js';
import { samlpAddonProblem } from '../../domain/clients/samlp-addon.js';
import type { UnitOfWork } from '../../domain/stores.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ClientCredentialStore } from '../../domain/client-credentials/store.js';

export { notFound };

/** Which fields a response carries: all readable ones, only some, or all but some. */
export type FieldSelection = { mode: 'all' } | { mode: 'include' | 'exclude'; fields: ReadonlySet<string> };

/** Create and rotate-secret answer with the whole client, its new secret included. */
export const FULL_ACCESS: FieldAccess = { config: true, credentials: true };

/** PATCH answers with the whole client, as create does; its credentials only to tokens that may handle them. */
export function updateResponseAccess(scopes: ReadonlySet<string>): FieldAccess {
  return { config: true, credentials: ['update:client_keys', 'read:client_keys', 'read:client_credentials'].some((scope) => scopes.has(scope)) };
}

function selected(field: string, selection: FieldSelection): boolean {
  return selection.mode === 'all' || (selection.mode === 'include' ? selection.fields.has(field) : !selection.fields.has(field));
}

export type ClientQuery =
  | { kind: 'organization'; organizationId: string }
  | { kind: 'any_organization' };

export type ClientList =
  | ClientResponseBody[]
  | { total: number; start: number; limit: number; clients: ClientResponseBody[] }
  | { clients: ClientResponseBody[]; next?: string };

function invalidBody(property: string, message: string): ManagementError {
  const description = describeClientProperty(property);
  return managementErrors.invalidBody(
    `Payload validation error: '${message}' on property ${property}${description ? ` (${description})` : ''}.`,
  );
}

/** Scopes a write needs beyond the route's, by the members it touches (the service's OpenAPI notes). */
function requireWriteScopes(body: ClientBody, principal: ManagementPrincipal, create: boolean): void {
  const need = (anyOf: string[]) => {
    if (!anyOf.some((s) => principal.scopes.has(s))) throw managementErrors.insufficientScope(anyOf);
  };
  if (body.client_authentication_methods !== undefined) {
    need(create ? ['create:client_credentials'] : ['update:client_credentials', 'update:client_keys']);
  }
  if (!create && (body.client_secret !== undefined || body.encryption_key !== undefined)) need(['update:client_keys']);
  if (!create) {
    const others = Object.keys(body).filter((k) => !['client_secret', 'encryption_key', 'client_authentication_methods'].includes(k));
    if (others.length) need(['update:clients', 'update:client_keys']);
  }
}

/** Whether a client configuration names credentials (inline or by id). */
function referencesCredentials(config: ClientConfig): boolean {
  return (config.client_authentication_methods ?? null) !== null || (config.signed_request_object as { credentials?: unknown } | undefined)?.credentials !== undefined;
}

/** Rules that relate members to each other, checked on the client as it will be stored. */
function checkConsistency(config: ClientConfig): void {
  if (config.organization_require_behavior === 'post_login_prompt' && config.oidc_conformant !== true) {
    throw invalidBody('organization_require_behavior', 'post_login_prompt requires oidc_conformant to be true');
  }
  const addons = config.addons as Record<string, unknown> | undefined;
  const samlp = samlpAddonProblem(addons?.samlp);
  if (samlp) throw managementErrors.invalidBody(`Payload validation error: '${samlp.message}' on property ${samlp.property}.`);
}

/** What ClientService touches. */
export interface ClientServiceContext {
  readonly box: SecretBox;
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly unitOfWork: UnitOfWork;
  readonly stores: ProfileReferenceStores & {
    readonly clientAnchors: ClientOffsetAnchors;
    readonly clientCredentials: ClientCredentialStore;
    readonly clients: ClientStore;
    readonly organizations: OrganizationStore;
  };
}

export class ClientService {
  /** Answers `q=client_grant.organization_id:…`. */
  private readonly organizations: OrganizationStore;

  /** Deep offset pages start from cached anchors instead of walking every skipped row. */
  private readonly anchors: ClientOffsetAnchors;

  constructor(private readonly ctx: ClientServiceContext) {
    this.organizations = ctx.stores.organizations;
    this.anchors = ctx.stores.clientAnchors;
  }

  /**
   * The client as the Management API shows it, limited to what `access` may
   * read and `selection` asks for: the members the response Client declares
   * (./schema.ts), taken from the stored configuration, never a stored member
   * it does not declare. The route's serializer applies the scope limit again
   * (./fields.ts, clientSchemas), whatever this object holds.
   */
  async present(
    tenant: Tenant,
    client: ListedClient,
    access: FieldAccess,
    selection: FieldSelection = { mode: 'all' },
    signingKeys?: TenantKeys['clientSigningKeys'],
  ): Promise<ClientResponseBody> {
    const config: ClientConfig = { ...client.config };
    const out: ClientResponseBody = {};
    for (const field of CLIENT_RESPONSE_FIELDS) {
      if (!canRead(field, access) || !selected(field, selection)) continue;
      switch (field) {
        case 'tenant':
          out.tenant = tenant.name;
          break;
        case 'global':
          out.global = client.global === 1;
          break;
        case 'client_id':
          out.client_id = client.client_id;
          break;
        case 'client_secret':
          // The secret is unsealed only when the response carries it.
          if (client.client_secret_enc) {
            out.client_secret = this.ctx.box.openString(client.client_secret_enc, clientSecretContext(tenant.id, client.client_id));
          }
          break;
        case 'signing_keys':
          out.signing_keys = signingKeys ?? (await this.ctx.keyring.keys(tenant.id)).clientSigningKeys;
          break;
        default:
          if (config[field] !== undefined) out[field] = config[field];
      }
    }
    return out;
  }

  async find(tenant: Tenant, clientId: string): Promise<ClientRow> {
    const row = await this.ctx.stores.clients.get(tenant.id, clientId);
    if (!row) throw notFound();
    return row;
  }

  async create(tenant: Tenant, body: ClientBody, principal: ManagementPrincipal): Promise<ClientResponseBody> {
    requireWriteScopes(body, principal, true);
    const config = newClientConfig(body);
    checkConsistency(config);
    await checkProfileReferences(this.ctx.stores, tenant.id, body);
    const clientId = newClientId();
    const now = isoAt(this.ctx.now());
    const row: ClientRow = {
      tenant_id: tenant.id,
      client_id: clientId,
      global: 0,
      ...columnsFromConfig(config),
      client_secret_enc: this.ctx.box.seal(newClientSecret(), clientSecretContext(tenant.id, clientId), tenant.id),
      created_at: now,
      updated_at: now,
      config,
    };
    const enableConnections = enablesNewClients(tenant.settings);
    if (!referencesCredentials(config) && !enableConnections) {
      await this.ctx.stores.clients.insert(row);
      return this.present(tenant, row, FULL_ACCESS);
    }
    // Inline credentials and connection links are created with the client, in one transaction: the client first (they reference it).
    const stored = await this.ctx.unitOfWork.transaction(async (stores) => {
      let created = row;
      if (!referencesCredentials(config)) {
        await stores.clients.insert(row);
      } else {
        const { client_authentication_methods: _methods, signed_request_object: _jar, ...bare } = config;
        await stores.clients.insert({ ...row, ...columnsFromConfig(bare), config: bare });
        await resolveCredentialReferences(stores, tenant, clientId, config, now);
        const changes = { ...columnsFromConfig(config), config };
        await stores.clients.update(tenant.id, clientId, changes);
        created = { ...row, ...changes };
      }
      if (enableConnections) await enableOnEveryConnection(stores.connections, tenant.id, clientId);
      return created;
    });
    return this.present(tenant, stored, FULL_ACCESS);
  }

  /** Updates the client; answers with it as `access` (updateResponseAccess) may read it. */
  async update(tenant: Tenant, clientId: string, body: ClientBody, principal: ManagementPrincipal, access: FieldAccess): Promise<ClientResponseBody> {
    requireWriteScopes(body, principal, false);
    const row = await this.find(tenant, clientId);
    const config: ClientConfig = { ...row.config };
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'client_secret') config[key] = value;
    }
    keepSecretEncoded(row.config, config);
    checkConsistency(config);
    await checkProfileReferences(this.ctx.stores, tenant.id, body);
    if (body.client_authentication_methods !== undefined || body.signed_request_object !== undefined) {
      await resolveCredentialReferences(this.ctx.stores, tenant, clientId, config, isoAt(this.ctx.now()));
    }
    const changes: Partial<ClientRow> = {
      ...columnsFromConfig(config),
      config,
      updated_at: isoAt(this.ctx.now()),
    };
    if (typeof body.client_secret === 'string') {
      changes.client_secret_enc = this.ctx.box.seal(body.client_secret, clientSecretContext(tenant.id, clientId), tenant.id);
    }
    await this.ctx.stores.clients.update(tenant.id, clientId, changes);
    return this.present(tenant, { ...row, ...changes }, access);
  }

  async rotateSecret(tenant: Tenant, clientId: string): Promise<ClientResponseBody> {
    const row = await this.find(tenant, clientId);
    const changes = {
      client_secret_enc: this.ctx.box.seal(newClientSecret(), clientSecretContext(tenant.id, clientId), tenant.id),
      updated_at: isoAt(this.ctx.now()),
    };
    await this.ctx.stores.clients.update(tenant.id, clientId, changes);
    return this.present(tenant, { ...row, ...changes }, FULL_ACCESS);
  }

  async delete(tenant: Tenant, clientId: string): Promise<void> {
    const row = await this.find(tenant, clientId);
    if (row.global === 1) throw managementErrors.badRequest('The global client cannot be deleted.', 'operation_not_supported');
    await this.ctx.stores.clients.delete(tenant.id, clientId);
  }

  /** A page of clients, in the paging style the request chose. */
  async list(
    tenant: Tenant,
    filter: ClientFilter,
    paging: Paging,
    query: ClientQuery | undefined,
    access: FieldAccess,
    selection: FieldSelection,
  ): Promise<ClientList> {
    const withSecret = access.credentials && selected('client_secret', selection);
    // The tenant's signing certificates are the same for every client of the page.
    const signingKeys = access.credentials ? (await this.ctx.keyring.keys(tenant.id)).clientSigningKeys : undefined;
    const present = (rows: ListedClient[]) => Promise.all(rows.map((row) => this.present(tenant, row, access, selection, signingKeys)));

    if (paging.kind === 'checkpoint') {
      // One id past the page tells whether there is a next page.
      const limit = paging.take + 1;
      let page: ListedClient[];
      let more: boolean;
      /** The paging key of the page's last entry (a q page's last id, even if that client vanished meanwhile). */
      let lastKey: string | undefined;
      if (query) {
        const ids =
          query.kind === 'organization'
            ? await this.organizations.clientIdsWithGrantForOrganization(tenant.id, query.organizationId, paging.after, limit)
            : await this.ctx.stores.clients.idsWithAnyOrganizationGrant(tenant.id, paging.after, limit);
        const pageIds = ids.slice(0, paging.take);
        page = pageIds.length ? await this.ctx.stores.clients.list(tenant.id, { clientIds: pageIds }, { kind: 'keyset', limit: pageIds.length }, withSecret) : [];
        more = ids.length > paging.take;
        lastKey = pageIds.at(-1);
      } else {
        const after = paging.after === undefined ? {} : { after: paging.after };
        const rows = await this.ctx.stores.clients.list(tenant.id, filter, { kind: 'keyset', ...after, limit }, withSecret);
        page = rows.slice(0, paging.take);
        more = rows.length > paging.take;
        lastKey = page.at(-1)?.client_id;
      }
      const result: { clients: ClientResponseBody[]; next?: string } = { clients: await present(page) };
      if (more && lastKey !== undefined) result.next = sealCheckpoint(this.ctx.box, checkpointScope(tenant), lastKey, this.ctx.now());
      return result;
    }

    let rows: ListedClient[] = [];
    if (paging.perPage > 0) {
      const start = await this.anchors.start(tenant.id, filter, paging.page * paging.perPage);
      rows = await this.ctx.stores.clients.list(tenant.id, filter, { kind: 'offset', limit: paging.perPage, ...start }, withSecret);
    }
    const clients = await present(rows);
    if (!paging.includeTotals) return clients;
    return { total: await this.ctx.stores.clients.count(tenant.id, filter), start: paging.page * paging.perPage, limit: paging.perPage, clients };
  }
}

export function checkpointScope(tenant: Tenant): string {
  return `${tenant.id}:clients`;
}

/** The 403 for fields the token may not read, naming each with the scopes it needs. */
export function unreadableFields(fields: Iterable<string>, access: FieldAccess): ManagementError | undefined {
  const denied = [...fields].filter((f) => !canRead(f, access));
  if (!denied.length) return undefined;
  const detail = denied.map((f) => `${f} (${scopesToRead(f).join(' or ')})`).join(', ');
  return new ManagementError(
    403,
    `Some fields cannot be read with the permissions granted by the bearer token scopes: ${detail}.`,
    'insufficient_scope',
  );
}
