/**
 * The little of connections that users need: a tenant's connection by name,
 * with its options parsed. Reads through the connection store.
 */
import type { ConnectionStore } from '../connections/store.js';

export interface UserConnection {
  id: string;
  name: string;
  strategy: string;
  /** Parsed `options` JSON; `{}` when unreadable. */
  options: { requires_username?: boolean } & Record<string, unknown>;
}

/** The connection named `name` in the tenant, or undefined. Names are compared exactly, as the service does. */
export async function findConnectionByName(connections: Pick<ConnectionStore, 'getByName'>, tenantId: string, name: string): Promise<UserConnection | undefined> {
  const row = await connections.getByName(tenantId, name);
  if (!row) return undefined;
  const options = (row.options !== null && typeof row.options === 'object' && !Array.isArray(row.options) ? row.options : {}) as UserConnection['options'];
  return { id: row.id, name: row.name, strategy: row.strategy, options };
}
