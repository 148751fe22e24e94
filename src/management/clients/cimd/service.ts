/**
 * Clients from Client ID Metadata Documents (POST /api/v2/clients/cimd/preview
 * and /register; the rules are src/domain/clients/cimd.ts).
 *
 * The document, and a private_key_jwt client's `jwks_uri`, are fetched
 * through the outbound guard (src/platform/http/upstream-fetch.ts: HTTPS
 * only, certificates verified, a loopback or private address refused unless
 * GATEHOUSE_OUTBOUND_ALLOW lists it, no redirect followed), bounded: at most
 * CIMD_MAX_BYTES (5 KiB) for the document, CIMD_JWKS_MAX_BYTES for the JWKS,
 * CIMD_TIMEOUT_MS each. A fetch that fails is a retrieval error: preview
 * answers it in `errors`, register refuses with 400 "could not be retrieved".
 *
 * Registration upserts the tenant's client whose `external_client_id` is the
 * URL (unique per tenant, migration 0260): created (201, create:clients) or
 * updated (200, update:clients) from the mapped fields; a CIMD client has no
 * client secret, is a third-party client (`is_first_party: false`, so its
 * users are asked for consent), and shows `external_metadata_type: cimd`,
 * `external_metadata_created_by: admin`. A private_key_jwt client's
 * credentials follow the JWKS: a key still listed (same kid and key) keeps
 * its credential, a new one is added, one no longer listed is removed.
 */
import type { ClientCredentialStore } from '../../../domain/client-credentials/store.js';
import { newCredentialRow } from '../../../domain/client-credentials/new-credential.js';
import { CIMD_JWKS_MAX_BYTES, CIMD_MAX_BYTES, CIMD_TIMEOUT_MS, checkMetadata, clientIdUrlProblem, type CimdChecked, type CimdKey, type CimdMappedFields } from '../../../domain/clients/cimd.js';
import { columnsFromConfig, newClientConfig, type ClientConfig } from '../../../domain/clients/model.js';
import type { ClientStore } from '../../../domain/clients/store.js';
import { enableOnEveryConnection, enablesNewClients } from '../../../domain/connections/new-clients.js';
import type { ConnectionStore } from '../../../domain/connections/store.js';
import type { ClientRow } from '../../../domain/rows.js';
import type { UnitOfWork } from '../../../domain/stores.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { newClientId, newPrefixedId } from '../../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../../platform/database-errors.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { OutboundPolicy } from '../../../platform/http/outbound-guard.js';
import { upstreamFetch, type UpstreamFetch } from '../../../platform/http/upstream-fetch.js';
import type { ManagementPrincipal } from '../../auth.js';

type CimdStores = { clients: ClientStore; clientCredentials: ClientCredentialStore; connections: ConnectionStore };

/** What the CIMD operations touch. */
export interface CimdContext {
  readonly now: () => number;
  readonly config: { readonly outbound: OutboundPolicy };
  readonly stores: { readonly clients: Pick<ClientStore, 'getByExternalClientId'> };
  readonly unitOfWork: UnitOfWork<CimdStores>;
}

export interface CimdPreview {
  client_id?: string;
  errors?: string[];
  validation?: CimdChecked['validation'];
  mapped_fields?: CimdMappedFields;
}

export interface CimdRegistration {
  created: boolean;
  body: { client_id: string; mapped_fields: CimdMappedFields; validation: CimdChecked['validation'] };
}

/** The outcome of fetching and checking a document: retrieval errors, or what checking found. */
type Fetched = { errors: string[] } | { checked: CimdChecked };

export class CimdService {
  readonly #fetchDocument: UpstreamFetch;
  readonly #fetchJwks: UpstreamFetch;

  constructor(private readonly ctx: CimdContext) {
    this.#fetchDocument = upstreamFetch({ outbound: ctx.config.outbound, maxBody: CIMD_MAX_BYTES, timeoutMs: CIMD_TIMEOUT_MS });
    this.#fetchJwks = upstreamFetch({ outbound: ctx.config.outbound, maxBody: CIMD_JWKS_MAX_BYTES, timeoutMs: CIMD_TIMEOUT_MS });
  }

  async preview(tenant: Tenant, url: string): Promise<CimdPreview> {
    checkUrl(url);
    const existing = await this.ctx.stores.clients.getByExternalClientId(tenant.id, url);
    const fetched = await this.#fetch(url);
    const base = existing ? { client_id: existing.client_id } : {};
    if ('errors' in fetched) return { ...base, errors: fetched.errors };
    return { ...base, validation: fetched.checked.validation, ...(fetched.checked.mapped && { mapped_fields: fetched.checked.mapped }) };
  }

  async register(tenant: Tenant, url: string, principal: ManagementPrincipal, retried = false): Promise<CimdRegistration> {
    checkUrl(url);
    const existing = await this.ctx.stores.clients.getByExternalClientId(tenant.id, url);
    const scope = existing ? 'update:clients' : 'create:clients';
    if (!principal.scopes.has(scope)) throw managementErrors.insufficientScope([scope]);
    const fetched = await this.#fetch(url);
    if ('errors' in fetched) throw managementErrors.invalidBody(`The Client Metadata at ${url} could not be retrieved: ${fetched.errors.join('; ')}`);
    const { validation, mapped, keys } = fetched.checked;
    if (!validation.valid || !mapped) throw managementErrors.invalidBody(`The Client Metadata document at ${url} cannot be applied: ${validation.violations.join('; ')}`);
    try {
      const clientId = existing ? await this.#update(tenant, existing, mapped, keys) : await this.#create(tenant, mapped, keys);
      return { created: !existing, body: { client_id: clientId, mapped_fields: mapped, validation } };
    } catch (error) {
      // Another registration of the same URL created the client first: this one updates it.
      if (!existing && !retried && isUniqueViolation(error)) return this.register(tenant, url, principal, true);
      throw error;
    }
  }

  async #fetch(url: string): Promise<Fetched> {
    const document = await this.#fetchJson(this.#fetchDocument, url);
    if ('problem' in document) return { errors: [`The Client Metadata at ${url} could not be retrieved: ${document.problem}`] };
    const doc = document.json as Record<string, unknown> | null;
    let fetchedJwks: { jwks?: unknown; problem?: string } | undefined;
    const jwksUri = doc && typeof doc === 'object' ? doc.jwks_uri : undefined;
    if (doc && doc.token_endpoint_auth_method === 'private_key_jwt' && doc.jwks === undefined && typeof jwksUri === 'string' && jwksUri.startsWith('https://')) {
      const jwks = await this.#fetchJson(this.#fetchJwks, jwksUri);
      fetchedJwks = 'problem' in jwks ? { problem: jwks.problem } : { jwks: jwks.json };
    }
    return { checked: await checkMetadata(url, doc, fetchedJwks) };
  }

  async #fetchJson(fetch: UpstreamFetch, url: string): Promise<{ json: unknown } | { problem: string }> {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' } });
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (response.status >= 300 && response.status < 400) return { problem: `answered ${response.status}; redirects are not followed` };
    if (response.status !== 200) return { problem: `answered ${response.status}` };
    try {
      return { json: JSON.parse(await response.text()) as unknown };
    } catch {
      return { problem: 'the answer is not JSON' };
    }
  }

  async #create(tenant: Tenant, mapped: CimdMappedFields, keys: CimdKey[]): Promise<string> {
    const clientId = newClientId();
    const now = isoAt(this.ctx.now());
    const config = applyMapped(newClientConfig({ name: mapped.name, app_type: mapped.app_type, token_endpoint_auth_method: 'none', is_first_party: false }), mapped);
    const row: ClientRow = { tenant_id: tenant.id, client_id: clientId, global: 0, ...columnsFromConfig(config), client_secret_enc: null, created_at: now, updated_at: now, config };
    await this.ctx.unitOfWork.transaction(async (stores) => {
      await stores.clients.insert(row);
      if (keys.length > 0) await this.#syncCredentials(stores, tenant, row, keys, now);
      if (enablesNewClients(tenant.settings)) await enableOnEveryConnection(stores.connections, tenant.id, clientId);
    });
    return clientId;
  }

  async #update(tenant: Tenant, existing: ClientRow, mapped: CimdMappedFields, keys: CimdKey[]): Promise<string> {
    const now = isoAt(this.ctx.now());
    await this.ctx.unitOfWork.transaction(async (stores) => {
      const config = applyMapped({ ...existing.config }, mapped);
      const changes: Partial<ClientRow> = { ...columnsFromConfig(config), config, updated_at: now };
      await stores.clients.update(tenant.id, existing.client_id, changes);
      await this.#syncCredentials(stores, tenant, { ...existing, ...changes }, keys, now);
    });
    return existing.client_id;
  }

  /** The client's public keys become the JWKS's: kept, added, removed; client_authentication_methods names them. */
  async #syncCredentials(stores: CimdStores, tenant: Tenant, client: ClientRow, keys: CimdKey[], now: string): Promise<void> {
    const current = (await stores.clientCredentials.list(tenant.id, client.client_id)).filter((c) => c.credential_type === 'public_key');
    const ids: { id: string }[] = [];
    const kept = new Set<string>();
    for (const key of keys) {
      const row = await newCredentialRow({ credential_type: 'public_key', pem: key.pem, alg: key.alg, kid: key.kid, name: 'cimd' }, { tenantId: tenant.id, clientId: client.client_id, id: newPrefixedId('cred'), now });
      const same = current.find((c) => c.kid === row.kid && c.pem === row.pem && c.alg === row.alg);
      if (same) {
        kept.add(same.id);
        ids.push({ id: same.id });
        continue;
      }
      const replaced = current.find((c) => c.kid === row.kid);
      if (replaced) await stores.clientCredentials.delete(tenant.id, client.client_id, replaced.id);
      await stores.clientCredentials.insert(row);
      if (replaced) kept.add(replaced.id);
      ids.push({ id: row.id });
    }
    const config: ClientConfig = { ...client.config };
    if (keys.length > 0) config.client_authentication_methods = { private_key_jwt: { credentials: ids } };
    else delete config.client_authentication_methods;
    await stores.clients.update(tenant.id, client.client_id, { ...columnsFromConfig(config), config });
    for (const old of current) if (!kept.has(old.id)) await stores.clientCredentials.delete(tenant.id, client.client_id, old.id);
  }
}

function checkUrl(url: string): void {
  const problem = clientIdUrlProblem(url);
  if (problem) throw managementErrors.invalidBody(`Payload validation error: '${problem}' on property external_client_id (URL to the Client ID Metadata Document).`);
}

/** The mapped fields written onto a client's configuration. */
function applyMapped(config: ClientConfig, mapped: CimdMappedFields): ClientConfig {
  const out: ClientConfig = {
    ...config,
    name: mapped.name,
    app_type: mapped.app_type,
    callbacks: mapped.callbacks,
    grant_types: mapped.grant_types,
    // A private_key_jwt client authenticates with client_authentication_methods, as the service shows it (no method here).
    token_endpoint_auth_method: mapped.token_endpoint_auth_method === 'none' ? 'none' : null,
    external_client_id: mapped.external_client_id,
    external_metadata_type: 'cimd',
    external_metadata_created_by: 'admin',
  };
  if (mapped.logo_uri !== undefined) out.logo_uri = mapped.logo_uri;
  else delete out.logo_uri;
  return out;
}
