/**
 * Operations on a tenant's encryption key hierarchy (what the Management API's
 * /keys/encryption operations do, src/management/keys/encryption/): start a
 * rekey, bring a root key of one's own (create it, get a public wrapping key,
 * import the wrapped material), remove it. The mapping onto the service's key
 * types is in docs/operations/encryption-keys.md.
 */
import { createDecipheriv, createPrivateKey, generateKeyPair, privateDecrypt, constants, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { isoAt } from '../../platform/clock.js';
import { wrapKey, type SecretBox } from '../../platform/crypto/secret-box.js';
import { newJobRow } from '../jobs/store.js';
import type { JobStore } from '../jobs/store.js';
import type { UnitOfWork } from '../stores.js';
import { unwrapTenantKeys, wrapContext, wrappingKeyContext, type EncryptionKeyring } from './keyring.js';
import type { EncryptionKeyRow, EncryptionKeyType, EncryptionKeyState } from './rows.js';
import type { EncryptionKeyStore } from './store.js';

/** The wrapping algorithm of an import (the service's `EncryptionKeyPublicWrappingAlgorithm`). */
export const WRAPPING_ALGORITHM = 'CKM_RSA_AES_KEY_WRAP';
const WRAPPING_KEY_BITS = 3072;
/** RFC 5649's alternative initial value, which `id-aes256-wrap-pad` takes as its IV. */
const KWP_IV = Buffer.from('A65959A6', 'hex');

/** A refusal the Management API answers with its own status and message. */
export class EncryptionKeyError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** A key as the API shows it (`EncryptionKey`). */
export interface EncryptionKeyView {
  kid: string;
  type: EncryptionKeyType;
  state: EncryptionKeyState;
  created_at: string;
  updated_at: string;
  parent_kid: string | null;
  public_key: string | null;
}

export interface EncryptionHierarchyContext {
  readonly box: SecretBox;
  readonly encryptionKeys: EncryptionKeyring;
  readonly now: () => number;
  readonly stores: { readonly encryptionKeys: EncryptionKeyStore };
  /** Key writes are configuration writes: every process reloads the tenant's keys once they are committed (src/app/configuration-writes.ts). */
  readonly unitOfWork: UnitOfWork<{ readonly encryptionKeys: EncryptionKeyStore; readonly jobs: JobStore }>;
}

function view(row: EncryptionKeyRow): EncryptionKeyView {
  return { kid: row.kid, type: row.type, state: row.state, created_at: row.created_at, updated_at: row.updated_at, parent_kid: row.parent_kid, public_key: row.public_key };
}

const isRekeyKey = (row: EncryptionKeyRow) => (row.type === 'tenant-master-key' || row.type === 'tenant-encryption-key') && row.state === 'pre-activation';
const activeRoot = (rows: readonly EncryptionKeyRow[]) => rows.find((r) => r.type === 'customer-provided-root-key' && r.state === 'active');

export class EncryptionHierarchy {
  constructor(private readonly ctx: EncryptionHierarchyContext) {}

  /**
   * The tenant's keys, the environment root key first: it is `active` while it
   * wraps the tenant's master key (or seals the tenant's values directly, before
   * the tenant's first rekey) and `deactivated` while a root key of the
   * tenant's own does.
   */
  async list(tenantId: string, tenantCreatedAt: string): Promise<EncryptionKeyView[]> {
    const rows = await this.ctx.stores.encryptionKeys.list(tenantId);
    const root: EncryptionKeyView = {
      kid: this.ctx.box.rootKid,
      type: 'environment-root-key',
      state: activeRoot(rows) ? 'deactivated' : 'active',
      created_at: tenantCreatedAt,
      updated_at: tenantCreatedAt,
      parent_kid: null,
      public_key: null,
    };
    return [root, ...rows.map(view)];
  }

  async get(tenantId: string, tenantCreatedAt: string, kid: string): Promise<EncryptionKeyView> {
    const found = (await this.list(tenantId, tenantCreatedAt)).find((k) => k.kid === kid);
    if (!found) throw new EncryptionKeyError(404, 'The key does not exist.');
    return found;
  }

  /**
   * Starts a rekey: a new tenant master key (wrapped by the tenant's root key)
   * and a new tenant encryption key under it, both `pre-activation`, and the
   * job that activates them, moves every sealed value and retires the old keys
   * (src/domain/encryption/rekey.ts). One rekey at a time.
   */
  async startRekey(tenantId: string): Promise<{ jobId: string; masterKid: string; encryptionKid: string }> {
    const now = isoAt(this.ctx.now());
    const started = await this.ctx.unitOfWork.transaction(async (stores) => {
      const rows = await stores.encryptionKeys.list(tenantId);
      if ((await stores.encryptionKeys.rekeyRunning(tenantId)) || rows.some(isRekeyKey)) throw new EncryptionKeyError(409, 'A rekey of this tenant is already in progress.');
      const customer = activeRoot(rows);
      const parentKey = customer ? unwrapTenantKeys(this.ctx.box, rows).get(customer.kid)! : undefined;
      const master = randomBytes(32);
      const masterKid = randomUUID();
      const context = wrapContext(tenantId, 'tenant-master-key', masterKid);
      await stores.encryptionKeys.insert({
        ...blank(tenantId, masterKid, 'tenant-master-key', now),
        state: 'pre-activation',
        parent_kid: customer ? customer.kid : this.ctx.box.rootKid,
        wrapped_key: parentKey ? wrapKey(parentKey, master, context) : this.ctx.box.wrapUnderRoot(master, context),
      });
      const encryptionKid = randomUUID();
      await stores.encryptionKeys.insert({
        ...blank(tenantId, encryptionKid, 'tenant-encryption-key', now),
        state: 'pre-activation',
        parent_kid: masterKid,
        wrapped_key: wrapKey(master, randomBytes(32), wrapContext(tenantId, 'tenant-encryption-key', encryptionKid)),
      });
      const job = newJobRow(tenantId, 'encryption_rekey', now, { master_kid: masterKid, encryption_kid: encryptionKid });
      await stores.jobs.insert(job);
      return { jobId: job.id, masterKid, encryptionKid };
    });
    await this.#changed(tenantId);
    return started;
  }

  /** POST /keys/encryption with `customer-provided-root-key`: a key awaiting its material; one per tenant. */
  async createCustomerRoot(tenantId: string): Promise<EncryptionKeyView> {
    const now = isoAt(this.ctx.now());
    return this.ctx.unitOfWork.transaction(async (stores) => {
      const rows = await stores.encryptionKeys.list(tenantId);
      if (rows.some((r) => r.type === 'customer-provided-root-key' && r.state !== 'destroyed')) throw new EncryptionKeyError(409, 'Encryption key has already been created.');
      const row = { ...blank(tenantId, randomUUID(), 'customer-provided-root-key', now), state: 'pre-activation' as const };
      await stores.encryptionKeys.insert(row);
      return view(row);
    });
  }

  /** POST /keys/encryption/{kid}/wrapping-key: an RSA key pair whose public half wraps the material to import. */
  async wrappingKey(tenantId: string, kid: string): Promise<{ public_key: string; algorithm: typeof WRAPPING_ALGORITHM }> {
    const row = await this.ctx.stores.encryptionKeys.get(tenantId, kid);
    if (!row) throw new EncryptionKeyError(404, 'The key does not exist.');
    if (row.type !== 'customer-provided-root-key' || row.state !== 'pre-activation') {
      throw new EncryptionKeyError(409, 'Failed precondition. Create new encryption key without the key material first.');
    }
    // Off the event loop: an RSA key of this size takes a noticeable moment to make.
    const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: WRAPPING_KEY_BITS });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const privateDer = privateKey.export({ type: 'pkcs8', format: 'der' });
    await this.ctx.stores.encryptionKeys.update(tenantId, kid, {
      public_key: publicPem,
      wrapping_key_enc: this.ctx.box.wrapUnderRoot(privateDer, wrappingKeyContext(tenantId, kid)),
      updated_at: isoAt(this.ctx.now()),
    });
    return { public_key: publicPem, algorithm: WRAPPING_ALGORITHM };
  }

  /**
   * POST /keys/encryption/{kid}: the customer's 256-bit AES key, wrapped with
   * CKM_RSA_AES_KEY_WRAP (an ephemeral AES key under RSA-OAEP with SHA-256,
   * then the key under the ephemeral one with AES key wrap with padding, RFC
   * 5649). It becomes the tenant's root key: the tenant master key is
   * re-wrapped under it (created with a first encryption key when the tenant
   * had none), and the wrapping key is destroyed.
   */
  async importCustomerRoot(tenantId: string, kid: string, wrappedKey: string): Promise<EncryptionKeyView> {
    const now = isoAt(this.ctx.now());
    const result = await this.ctx.unitOfWork.transaction(async (stores) => {
      const rows = await stores.encryptionKeys.list(tenantId);
      const row = rows.find((r) => r.kid === kid);
      if (!row) throw new EncryptionKeyError(404, 'The key does not exist.');
      if (row.type !== 'customer-provided-root-key' || row.state !== 'pre-activation' || row.wrapping_key_enc === null) {
        throw new EncryptionKeyError(409, 'Failed precondition. Key import not in progress or unable to find the wrapping key. Make sure you have followed all the steps to import a key.');
      }
      if ((await stores.encryptionKeys.rekeyRunning(tenantId)) || rows.some(isRekeyKey)) throw new EncryptionKeyError(409, 'A rekey of this tenant is in progress; import the key once it has ended.');
      const material = unwrapImported(this.ctx.box.unwrapUnderRoot(row.wrapping_key_enc, wrappingKeyContext(tenantId, kid)), wrappedKey);
      const held = unwrapTenantKeys(this.ctx.box, rows);
      const active = { ...row, state: 'active' as const, parent_kid: null, wrapped_key: this.ctx.box.wrapUnderRoot(material, wrapContext(tenantId, row.type, kid)), wrapping_key_enc: null, public_key: null, updated_at: now };
      await stores.encryptionKeys.update(tenantId, kid, { state: 'active', parent_kid: null, wrapped_key: active.wrapped_key, wrapping_key_enc: null, public_key: null, updated_at: now });
      const masters = rows.filter((r) => r.type === 'tenant-master-key' && (r.state === 'active' || r.state === 'deactivated'));
      for (const master of masters) {
        const key = held.get(master.kid)!;
        await stores.encryptionKeys.update(tenantId, master.kid, { parent_kid: kid, wrapped_key: wrapKey(material, key, wrapContext(tenantId, master.type, master.kid)), updated_at: now });
      }
      if (masters.length === 0) await insertFirstKeys(stores.encryptionKeys, tenantId, kid, material, now);
      return view(active);
    });
    await this.#changed(tenantId);
    return result;
  }

  /**
   * DELETE /keys/encryption/{kid}: only a customer-provided root key goes (the
   * tenant's master key is wrapped under the environment root key again, as
   * the service moves back to its native key); the environment root key, and
   * tenant keys in use, are refused; a destroyed tenant key's record is removed.
   */
  async delete(tenantId: string, kid: string): Promise<void> {
    if (kid === this.ctx.box.rootKid) throw new EncryptionKeyError(400, 'The environment root key cannot be deleted.');
    const now = isoAt(this.ctx.now());
    await this.ctx.unitOfWork.transaction(async (stores) => {
      const rows = await stores.encryptionKeys.list(tenantId);
      const row = rows.find((r) => r.kid === kid);
      if (!row) return;
      if (row.type !== 'customer-provided-root-key') {
        if (row.state !== 'destroyed') throw new EncryptionKeyError(400, `The ${row.type} ${kid} is in use; a rekey retires it.`);
        await stores.encryptionKeys.delete(tenantId, kid);
        return;
      }
      if ((await stores.encryptionKeys.rekeyRunning(tenantId)) || rows.some(isRekeyKey)) throw new EncryptionKeyError(409, 'A rekey of this tenant is in progress; delete the key once it has ended.');
      const held = unwrapTenantKeys(this.ctx.box, rows);
      for (const master of rows.filter((r) => r.type === 'tenant-master-key' && r.parent_kid === kid && r.wrapped_key !== null)) {
        await stores.encryptionKeys.update(tenantId, master.kid, {
          parent_kid: this.ctx.box.rootKid,
          wrapped_key: this.ctx.box.wrapUnderRoot(held.get(master.kid)!, wrapContext(tenantId, master.type, master.kid)),
          updated_at: now,
        });
      }
      await stores.encryptionKeys.delete(tenantId, kid);
    });
    await this.#changed(tenantId);
  }

  /** This process holds the new keys before answering (the others reload on the invalidation). */
  async #changed(tenantId: string): Promise<void> {
    await this.ctx.encryptionKeys.reload(tenantId);
  }
}

function blank(tenantId: string, kid: string, type: EncryptionKeyRow['type'], now: string): EncryptionKeyRow {
  return { tenant_id: tenantId, kid, type, state: 'pre-activation', parent_kid: null, wrapped_key: null, wrapping_key_enc: null, public_key: null, created_at: now, updated_at: now };
}

/** A tenant without keys of its own gets its first master and encryption keys under the imported root key. */
async function insertFirstKeys(store: EncryptionKeyStore, tenantId: string, rootKid: string, root: Buffer, now: string): Promise<void> {
  const master = randomBytes(32);
  const masterKid = randomUUID();
  await store.insert({ ...blank(tenantId, masterKid, 'tenant-master-key', now), state: 'active', parent_kid: rootKid, wrapped_key: wrapKey(root, master, wrapContext(tenantId, 'tenant-master-key', masterKid)) });
  const encryptionKid = randomUUID();
  await store.insert({
    ...blank(tenantId, encryptionKid, 'tenant-encryption-key', now),
    state: 'active',
    parent_kid: masterKid,
    wrapped_key: wrapKey(master, randomBytes(32), wrapContext(tenantId, 'tenant-encryption-key', encryptionKid)),
  });
}

/** CKM_RSA_AES_KEY_WRAP unwrapped: RSA-OAEP (SHA-256) ephemeral key, then RFC 5649 key unwrap; a 32-byte key or a 400. */
function unwrapImported(privateDer: Buffer, wrappedKey: string): Buffer {
  const invalid = () => new EncryptionKeyError(400, 'The wrapped key could not be unwrapped with the wrapping key: wrap a 256-bit AES key with CKM_RSA_AES_KEY_WRAP (RSA-OAEP with SHA-256).');
  const wrapped = Buffer.from(wrappedKey, 'base64');
  const privateKey = createPrivateKey({ key: privateDer, format: 'der', type: 'pkcs8' });
  const rsaBytes = WRAPPING_KEY_BITS / 8;
  if (wrapped.length <= rsaBytes) throw invalid();
  let material: Buffer;
  try {
    const ephemeral = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped.subarray(0, rsaBytes));
    const decipher = createDecipheriv(`id-aes${ephemeral.length * 8}-wrap-pad`, ephemeral, KWP_IV);
    material = Buffer.concat([decipher.update(wrapped.subarray(rsaBytes)), decipher.final()]);
  } catch {
    throw invalid();
  }
  if (material.length !== 32) throw new EncryptionKeyError(400, 'The imported key must be a 256-bit AES key.');
  return material;
}
