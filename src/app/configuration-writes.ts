/**
 * Cache invalidation in one place. The issuance lookups, the tenant cache, the
 * keyring and the client offset anchors keep copies of a tenant's configuration; every
 * store write that changes it is listed here once, and the composition root
 * wraps those methods so that each invalidates the tenant (in this process
 * and, through Redis, in every other) once its data is committed: at once
 * for a write outside a transaction, after the commit for a write inside a
 * unit of work (a rolled-back transaction changed nothing, so it invalidates
 * nothing). Services only write; none of them remembers to invalidate.
 */
import type { Stores, UnitOfWork } from '../domain/stores.js';

type Writes = { [K in keyof Stores]?: readonly (keyof Stores[K] & string)[] };

/** The store methods that change cached tenant configuration. Each takes the tenant id, or a row with `tenant_id`, first. */
export const CONFIGURATION_WRITES = {
  tenants: ['updateSettings'],
  signingKeys: ['insert', 'rotate', 'revoke'],
  clients: ['insert', 'update', 'delete'],
  clientCredentials: ['insert', 'updateExpiry', 'delete'],
  resourceServers: ['insert', 'update', 'delete'],
  clientGrants: ['insert', 'update', 'delete'],
  connections: ['insert', 'update', 'delete', 'setClientStatus'],
  organizations: ['insert', 'update', 'delete', 'linkClientGrant', 'unlinkClientGrant'],
  customDomains: ['insert', 'update', 'delete'],
  networkAcls: ['insert', 'replace', 'delete'],
  // Enforced from a per-tenant cache (src/domain/rate-limit-policies/enforcement.ts).
  rateLimitPolicies: ['insert', 'update', 'delete'],
  customSigningKeys: ['set', 'delete'],
  // Every process reloads the tenant's encryption keys (src/domain/encryption/keyring.ts).
  encryptionKeys: ['insert', 'update', 'delete'],
  guardian: ['setEnabled', 'setSelectedProvider', 'replaceApns', 'mergeApns', 'replaceSns', 'mergeSns'],
  // What the Actions runtime runs (src/domain/actions-runtime/cached-source.ts): deployed versions and bindings.
  actions: ['create', 'update', 'delete', 'setBuild', 'insertVersion', 'pruneVersions'],
  actionBindings: ['replace'],
} as const satisfies Writes;

function tenantOf(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  const tenantId = (first as { tenant_id?: unknown } | null)?.tenant_id;
  if (typeof tenantId === 'string') return tenantId;
  throw new Error('a configuration write names no tenant');
}

/** Every method of a store object, bound to it (class methods may use private fields, so `this` must stay the store). */
function boundMethods(store: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let proto: object | null = store; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (store as Record<string, unknown>)[key];
      if (key !== 'constructor' && !(key in out) && typeof value === 'function') out[key] = (value as (...args: unknown[]) => unknown).bind(store);
    }
  }
  return out;
}

/** `stores` whose configuration writes call `written(tenantId)` once they resolve. */
export function recordingWrites(stores: Stores, written: (tenantId: string) => void, writes: Writes = CONFIGURATION_WRITES): Stores {
  const wrapped: Record<string, unknown> = { ...stores };
  for (const [name, methods] of Object.entries(writes) as [keyof Stores, readonly string[]][]) {
    const store = stores[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const proxy = boundMethods(store);
    for (const method of methods) {
      const original = store[method]!;
      proxy[method] = async (...args: unknown[]) => {
        const result = await original.apply(store, args);
        written(tenantOf(args));
        return result;
      };
    }
    wrapped[name] = proxy;
  }
  return wrapped as unknown as Stores;
}

/**
 * The stores and unit of work the services get: writes outside a transaction
 * invalidate at once; a unit of work collects the tenants its writes changed
 * (nested units included) and invalidates them after it commits.
 */
export function invalidatingStores(stores: Stores, unitOfWork: UnitOfWork, invalidate: (tenantId: string) => void): { stores: Stores; unitOfWork: UnitOfWork } {
  const joinedUnit = (unit: UnitOfWork, written: (tenantId: string) => void): UnitOfWork => ({
    transaction: (work) => unit.transaction((inner, joined) => work(recordingWrites(inner, written), joinedUnit(joined, written))),
  });
  return {
    stores: recordingWrites(stores, invalidate),
    unitOfWork: {
      async transaction(work) {
        const changed = new Set<string>();
        const written = (tenantId: string) => changed.add(tenantId);
        const result = await unitOfWork.transaction((inner, joined) => work(recordingWrites(inner, written), joinedUnit(joined, written)));
        for (const tenantId of changed) invalidate(tenantId);
        return result;
      },
    },
  };
}
