/**
 * Clients' credentials (public keys and certificates for private_key_jwt,
 * mTLS and signed request objects), and the references to them in a
 * client's `client_authentication_methods` and `signed_request_object`.
 */
import type { Static } from '@sinclair/typebox';
import { CredentialInputError, newCredentialRow, type CredentialInput } from '../../../domain/client-credentials/new-credential.js';
import type { ClientConfig, ClientCredentialRow } from '../../../domain/rows.js';
import type { Stores } from '../../../domain/stores.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { newPrefixedId } from '../../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../../platform/database-errors.js';
import { managementErrors, type ManagementError } from '../../../platform/http/errors.js';
import { notFound as clientNotFound } from '../errors.js';
import type { CredentialResponse } from './schema.js';
import type { ClientCredentialStore } from '../../../domain/client-credentials/store.js';
import type { ClientStore } from '../../../domain/clients/store.js';

export type Credential = Static<typeof CredentialResponse>;

const credentialNotFound = () => managementErrors.notFound('The credential does not exist.', 'inexistent_credential');

/** The credential type each method (and signed request objects) takes. */
export const METHOD_CREDENTIAL_TYPES: Record<string, ClientCredentialRow['credential_type']> = {
  private_key_jwt: 'public_key',
  tls_client_auth: 'cert_subject_dn',
  self_signed_tls_client_auth: 'x509_cert',
  signed_request_object: 'public_key',
};

export function credentialFromRow(row: ClientCredentialRow): Credential {
  return {
    id: row.id,
    name: row.name,
    kid: row.kid,
    ...(row.alg !== null && { alg: row.alg }),
    credential_type: row.credential_type,
    ...(row.subject_dn !== null && { subject_dn: row.subject_dn }),
    ...(row.thumbprint_sha256 !== null && { thumbprint_sha256: row.thumbprint_sha256 }),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.expires_at !== null && { expires_at: row.expires_at }),
  };
}

function invalid(property: string, message: string): ManagementError {
  return managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);
}

/** The credential ids a client's configuration uses, with where. */
export function credentialUses(config: ClientConfig): Map<string, string> {
  const uses = new Map<string, string>();
  const methods = config.client_authentication_methods as Record<string, { credentials?: { id?: unknown }[] } | null> | null | undefined;
  for (const [method, value] of Object.entries(methods ?? {})) {
    for (const c of value?.credentials ?? []) if (typeof c?.id === 'string') uses.set(c.id, `client_authentication_methods.${method}`);
  }
  const jar = config.signed_request_object as { credentials?: { id?: unknown }[] } | null | undefined;
  for (const c of jar?.credentials ?? []) if (typeof c?.id === 'string') uses.set(c.id, 'signed_request_object');
  return uses;
}

/** A new credential row from an input, or the 400 the input earns. */
export async function buildCredential(tenant: Tenant, clientId: string, input: CredentialInput, now: string, property = ''): Promise<ClientCredentialRow> {
  try {
    return await newCredentialRow(input, { tenantId: tenant.id, clientId, id: newPrefixedId('cred'), now });
  } catch (error) {
    if (error instanceof CredentialInputError) throw invalid(property ? `${property}.${error.property}` : error.property, error.message);
    throw error;
  }
}

/**
 * The client's `client_authentication_methods` and `signed_request_object`
 * with every credential resolved to `{id}`: inline credentials (a new
 * client's) are created with `stores`; ids must name credentials of this
 * client of the type the method takes. Unique ids per method.
 */
export async function resolveCredentialReferences(
  stores: Pick<Stores, 'clientCredentials'>,
  tenant: Tenant,
  clientId: string,
  config: ClientConfig,
  now: string,
): Promise<void> {
  const resolve = async (where: string, type: ClientCredentialRow['credential_type'], list: unknown): Promise<{ id: string }[]> => {
    if (!Array.isArray(list)) return [];
    const out: { id: string }[] = [];
    for (const [index, entry] of list.entries()) {
      const item = entry as Record<string, unknown>;
      let id: string;
      if (typeof item.id === 'string' && Object.keys(item).length === 1) {
        const row = await stores.clientCredentials.get(tenant.id, clientId, item.id);
        if (!row) throw invalid(`${where}.credentials[${index}].id`, `Credential ${item.id} does not exist for this client`);
        if (row.credential_type !== type) throw invalid(`${where}.credentials[${index}].id`, `Credential ${item.id} is a ${row.credential_type}; ${where} takes ${type}`);
        id = row.id;
      } else {
        const input = item as unknown as CredentialInput;
        if (input.credential_type !== type) throw invalid(`${where}.credentials[${index}].credential_type`, `${where} takes credentials of type ${type}`);
        const row = await buildCredential(tenant, clientId, input, now, `${where}.credentials[${index}]`);
        try {
          await stores.clientCredentials.insert(row);
        } catch (error) {
          if (isUniqueViolation(error)) throw invalid(`${where}.credentials[${index}].kid`, `The client already has a credential with kid ${row.kid}`);
          throw error;
        }
        id = row.id;
      }
      if (out.some((c) => c.id === id)) throw invalid(`${where}.credentials`, `Credential ${id} is listed twice`);
      out.push({ id });
    }
    return out;
  };
  const methods = config.client_authentication_methods as Record<string, { credentials?: unknown } | null> | null | undefined;
  if (methods) {
    const resolved: Record<string, { credentials: { id: string }[] }> = {};
    for (const [method, value] of Object.entries(methods)) {
      // The method is a name from the body: own members only (`constructor` is no method).
      const type = Object.hasOwn(METHOD_CREDENTIAL_TYPES, method) ? METHOD_CREDENTIAL_TYPES[method] : undefined;
      if (!type || method === 'signed_request_object') throw invalid('client_authentication_methods', `Unknown client authentication method ${method}`);
      resolved[method] = { credentials: await resolve(`client_authentication_methods.${method}`, type, value?.credentials) };
    }
    config.client_authentication_methods = resolved;
  }
  const jar = config.signed_request_object as { required?: unknown; credentials?: unknown } | null | undefined;
  if (jar && jar.credentials !== undefined) {
    config.signed_request_object = { ...jar, credentials: await resolve('signed_request_object', 'public_key', jar.credentials) };
  }
}

/** What ClientCredentialService touches. */
export interface ClientCredentialServiceContext {
  readonly now: () => number;
  readonly stores: { readonly clientCredentials: ClientCredentialStore; readonly clients: ClientStore };
}

export class ClientCredentialService {
  constructor(private readonly ctx: ClientCredentialServiceContext) {}

  async #client(tenant: Tenant, clientId: string) {
    const client = await this.ctx.stores.clients.get(tenant.id, clientId);
    if (!client) throw clientNotFound();
    return client;
  }

  async list(tenant: Tenant, clientId: string): Promise<Credential[]> {
    await this.#client(tenant, clientId);
    return (await this.ctx.stores.clientCredentials.list(tenant.id, clientId)).map(credentialFromRow);
  }

  async get(tenant: Tenant, clientId: string, id: string): Promise<Credential> {
    await this.#client(tenant, clientId);
    const row = await this.ctx.stores.clientCredentials.get(tenant.id, clientId, id);
    if (!row) throw credentialNotFound();
    return credentialFromRow(row);
  }

  async create(tenant: Tenant, clientId: string, input: CredentialInput): Promise<Credential> {
    await this.#client(tenant, clientId);
    const row = await buildCredential(tenant, clientId, input, isoAt(this.ctx.now()));
    try {
      await this.ctx.stores.clientCredentials.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw managementErrors.conflict(`The client already has a credential with kid ${row.kid}.`);
      throw error;
    }
    return credentialFromRow(row);
  }

  async update(tenant: Tenant, clientId: string, id: string, expiresAt: string | null): Promise<Credential> {
    await this.#client(tenant, clientId);
    const at = expiresAt === null ? null : new Date(expiresAt).toISOString();
    const row = await this.ctx.stores.clientCredentials.updateExpiry(tenant.id, clientId, id, at, isoAt(this.ctx.now()));
    if (!row) throw credentialNotFound();
    return credentialFromRow(row);
  }

  /** A credential a method or signed request objects still use cannot be deleted. */
  async delete(tenant: Tenant, clientId: string, id: string): Promise<void> {
    const client = await this.#client(tenant, clientId);
    const use = credentialUses(client.config).get(id);
    if (use) throw managementErrors.badRequest(`The credential is in use by ${use}; remove it there first.`, 'credential_in_use');
    if (!(await this.ctx.stores.clientCredentials.delete(tenant.id, clientId, id))) throw credentialNotFound();
  }
}
