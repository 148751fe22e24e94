/**
 * The database connection of the hosted login, signup and forgot-password
 * pages of an authorization request, resolved as the service resolves it when
 * an application has several:
 *
 * 1. the request's `connection` parameter (only that one: /authorize has
 *    already refused a name that is not enabled for the client, see
 *    src/authentication/authorize/requested-connection.ts);
 * 2. else the tenant's `default_directory`, when it names a database
 *    connection enabled for the client (the service's "Default Directory"
 *    decides the connection of an /authorize without `connection`: Auth0
 *    community article "Understanding Default Connection Behavior in API
 *    Authorization Settings"; the wire notes only describe it for the
 *    password grant, §5);
 * 3. else the first database connection enabled for the client, oldest
 *    first (`created_at`, then name): a tenant's `Username-Password-
 *    Authentication` stays the default when an application also gets a
 *    connection of its own. The service does not document its order; the
 *    creation order is the most plausible stable one and does not change when
 *    connections are added after it.
 *
 * Undefined only when the client has no database connection at all (or the
 * request names a connection of another kind, which another step serves).
 * The pages do not say which connection is used, as the service's do not.
 * The password grants keep their own rules (`realm`, `default_directory`:
 * src/authentication/token/grants/password.ts).
 */
import type { ConnectionRow } from '../rows.js';

/** Oldest first; the name breaks a tie of two connections created in the same millisecond. */
function byCreation(a: ConnectionRow, b: ConnectionRow): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * `enabled`: the database connections enabled for the client; `named`: the
 * request's `connection`; `defaultDirectory`: the tenant's setting.
 */
export function hostedLoginConnection(enabled: readonly ConnectionRow[], named: string | undefined, defaultDirectory: string | undefined): ConnectionRow | undefined {
  if (named !== undefined) return enabled.find((c) => c.name === named);
  const directory = defaultDirectory ? enabled.find((c) => c.name === defaultDirectory) : undefined;
  return directory ?? [...enabled].sort(byCreation)[0];
}
