/**
 * The tenant encryption key hierarchy, held in memory for the secret box
 * (src/platform/crypto/secret-box.ts), which seals and opens synchronously:
 *
 *   environment root key (GATEHOUSE_MASTER_KEY)  ─┐
 *   or the tenant's customer-provided root key ───┴─ wraps the tenant master key
 *   tenant master key ─ wraps the tenant encryption keys
 *   tenant encryption key ─ seals the tenant's secrets (`v2.<kid>.…`)
 *
 * A process loads every tenant's keys at start, reloads a tenant's when its
 * configuration is invalidated (a key operation invalidates it, through Redis
 * across processes) and reloads all every `GATEHOUSE_ENCRYPTION_KEYS_REFRESH`
 * (so processes without Redis learn of a rekey too). A rekey waits that long
 * before sealing under a new key and before retiring an old one
 * (src/domain/encryption/rekey.ts).
 */
import type { Logger } from 'pino';
import { unwrapKey, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { EncryptionKeyRow, StoredEncryptionKeyType } from './rows.js';
import type { EncryptionKeyStore } from './store.js';

/** The additional data a wrapped key is bound to: its tenant, its type and its kid. */
export function wrapContext(tenantId: string, type: StoredEncryptionKeyType, kid: string): string {
  return `${type}:${tenantId}:${kid}`;
}

/** The additional data a pending import's wrapping private key is sealed with. */
export function wrappingKeyContext(tenantId: string, kid: string): string {
  return `wrapping-key:${tenantId}:${kid}`;
}

/** States whose material is kept (and so opens values). */
const LIVE = new Set(['pre-activation', 'active', 'deactivated']);

/**
 * The key material of a tenant's live keys: customer-provided root keys
 * unwrapped under the environment root key, master keys under their parent,
 * encryption keys under their master key. Throws when one does not unwrap.
 */
export function unwrapTenantKeys(box: SecretBox, rows: readonly EncryptionKeyRow[]): Map<string, Buffer> {
  const material = new Map<string, Buffer>();
  const order: StoredEncryptionKeyType[] = ['customer-provided-root-key', 'tenant-master-key', 'tenant-encryption-key'];
  for (const type of order) {
    for (const row of rows) {
      if (row.type !== type || !LIVE.has(row.state) || row.wrapped_key === null) continue;
      const context = wrapContext(row.tenant_id, row.type, row.kid);
      if (type === 'customer-provided-root-key' || row.parent_kid === box.rootKid) {
        material.set(row.kid, box.unwrapUnderRoot(row.wrapped_key, context));
        continue;
      }
      const parent = row.parent_kid === null ? undefined : material.get(row.parent_kid);
      if (parent === undefined) throw new Error(`the ${row.type} ${row.kid} names a parent key ${row.parent_kid} that is not held`);
      material.set(row.kid, unwrapKey(parent, row.wrapped_key, context));
    }
  }
  return material;
}

export class EncryptionKeyring {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: EncryptionKeyStore,
    private readonly box: SecretBox,
    private readonly logger: Logger,
  ) {}

  /** Installs one tenant's keys in the box from its rows. */
  install(tenantId: string, rows: readonly EncryptionKeyRow[]): void {
    const mine = rows.filter((r) => r.tenant_id === tenantId);
    const material = unwrapTenantKeys(this.box, mine);
    const encryption = new Map<string, Buffer>();
    let sealing: string | undefined;
    for (const row of mine) {
      if (row.type !== 'tenant-encryption-key' || !material.has(row.kid)) continue;
      encryption.set(row.kid, material.get(row.kid)!);
      if (row.state === 'active') sealing = row.kid;
    }
    this.box.setTenantKeys(tenantId, encryption, sealing);
  }

  /** Loads every tenant's live keys; a tenant whose keys do not unwrap is logged and left as it was. */
  async loadAll(): Promise<void> {
    const rows = await this.store.listLive();
    const tenants = new Set(rows.map((r) => r.tenant_id));
    for (const tenantId of tenants) this.#tryInstall(tenantId, rows);
  }

  /** Reloads one tenant's keys (after a key operation here or in another process). */
  async reload(tenantId: string): Promise<void> {
    this.#tryInstall(tenantId, await this.store.list(tenantId));
  }

  #tryInstall(tenantId: string, rows: readonly EncryptionKeyRow[]): void {
    try {
      this.install(tenantId, rows);
    } catch (err) {
      this.logger.error({ err, tenant: tenantId }, "the tenant's encryption keys do not unwrap; its secrets sealed under them cannot be opened");
    }
  }

  /** Reloads every tenant's keys every `intervalMs` until `stop()`. */
  start(intervalMs: number): void {
    this.#timer = setInterval(() => {
      this.loadAll().catch((err: unknown) => this.logger.warn({ err }, 'reloading the encryption keys failed'));
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
