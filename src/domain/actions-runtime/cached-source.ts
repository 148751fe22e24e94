/**
 * The bound actions of each tenant's triggers, kept in memory: the token
 * endpoint asks for them on every request (most often to learn that none is
 * bound). A tenant's entries are dropped when its configuration changes
 * (the Actions stores' writes are configuration writes,
 * src/app/configuration-writes.ts, so every process hears of them).
 */
import type { ActionSource, BoundActionLike } from './bound-action.js';

/** Entries kept at most (tenant and trigger pairs); the oldest goes first. */
const MAX_ENTRIES = 10_000;

export class CachedActionSource implements ActionSource {
  private readonly entries = new Map<string, Promise<BoundActionLike[]>>();

  constructor(private readonly source: ActionSource) {}

  boundActions(tenantId: string, triggerId: string): Promise<BoundActionLike[]> {
    const key = `${tenantId}\0${triggerId}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = this.source.boundActions(tenantId, triggerId);
      // A failed read is not kept.
      entry.catch(() => this.entries.delete(key));
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Drops the tenant's entries (its configuration changed). */
  forget(tenantId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${tenantId}\0`)) this.entries.delete(key);
  }
}
