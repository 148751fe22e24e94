/**
 * /api/v2/keys/encryption on the tenant's key hierarchy
 * (src/domain/encryption/hierarchy.ts): the handlers' one service. A kid that
 * is not a UUID is the service's 400; the domain's refusals become
 * Management API errors here.
 */
import { EncryptionHierarchy, EncryptionKeyError, type EncryptionHierarchyContext, type EncryptionKeyView } from '../../../domain/encryption/hierarchy.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { offsetList, offsetPaging, type OffsetList } from '../../lists.js';
import type { CreateEncryptionKeyBody, EncryptionKeysQuery } from './schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type EncryptionKeyServiceContext = EncryptionHierarchyContext;

function checkedKid(kid: string): string {
  if (!UUID.test(kid)) throw managementErrors.badRequest('Invalid UUID format in uri.', 'invalid_uri');
  return kid.toLowerCase();
}

async function answered<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof EncryptionKeyError)) throw error;
    if (error.status === 404) throw managementErrors.notFound(error.message);
    if (error.status === 409) throw managementErrors.conflict(error.message);
    throw managementErrors.badRequest(error.message, 'invalid_body');
  }
}

export class EncryptionKeyService {
  readonly #keys: EncryptionHierarchy;

  constructor(ctx: EncryptionKeyServiceContext) {
    this.#keys = new EncryptionHierarchy(ctx);
  }

  async list(tenant: Tenant, query: EncryptionKeysQuery): Promise<OffsetList<'keys', EncryptionKeyView>> {
    const page = offsetPaging(query);
    const all = await this.#keys.list(tenant.id, tenant.createdAt);
    const start = page.page * page.perPage;
    return offsetList('keys', all.slice(start, start + page.perPage), page, all.length);
  }

  get(tenant: Tenant, kid: string): Promise<EncryptionKeyView> {
    return answered(() => this.#keys.get(tenant.id, tenant.createdAt, checkedKid(kid)));
  }

  create(tenant: Tenant, body: CreateEncryptionKeyBody): Promise<EncryptionKeyView> {
    if (body.type !== 'customer-provided-root-key') {
      throw managementErrors.badRequest(
        'Unsupported key "type" provided. Gatehouse creates tenant encryption keys by rekey (POST /api/v2/keys/encryption/rekey); only a customer-provided-root-key can be created.',
        'invalid_body',
      );
    }
    return answered(() => this.#keys.createCustomerRoot(tenant.id));
  }

  wrappingKey(tenant: Tenant, kid: string) {
    return answered(() => this.#keys.wrappingKey(tenant.id, checkedKid(kid)));
  }

  import(tenant: Tenant, kid: string, wrappedKey: string): Promise<EncryptionKeyView> {
    return answered(() => this.#keys.importCustomerRoot(tenant.id, checkedKid(kid), wrappedKey));
  }

  delete(tenant: Tenant, kid: string): Promise<void> {
    return answered(() => this.#keys.delete(tenant.id, checkedKid(kid)));
  }

  async rekey(tenant: Tenant): Promise<void> {
    await answered(() => this.#keys.startRekey(tenant.id));
  }
}
