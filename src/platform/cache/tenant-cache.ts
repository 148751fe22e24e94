/**
 * Short-lived per-tenant caches for the hot paths (the token endpoint reads a
 * client, a resource server and a client grant per request).
 *
 * Entries live `ttlMs`; any write to a tenant's configuration clears that
 * tenant's entries through the invalidation bus, in this process at once and,
 * with REDIS_URL, in every process. Without Redis, other processes see a
 * change within the TTL.
 */
export class TenantCache<V> {
  readonly #tenants = new Map<string, Map<string, { value: Promise<V>; at: number }>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntriesPerTenant = 10_000,
  ) {}

  get(tenantId: string, key: string, load: () => Promise<V>): Promise<V> {
    let entries = this.#tenants.get(tenantId);
    const hit = entries?.get(key);
    const now = this.now();
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (!entries) {
      entries = new Map();
      this.#tenants.set(tenantId, entries);
    } else if (entries.size >= this.maxEntriesPerTenant) {
      entries.clear();
    }
    const value = load();
    const entry = { value, at: now };
    entries.set(key, entry);
    // A failed load is not cached.
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  }

  invalidateTenant(tenantId: string): void {
    this.#tenants.delete(tenantId);
  }
}
