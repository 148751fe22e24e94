/**
 * The admin console's client: one built-in first-party application per
 * tenant, through which an operator signs in to https://{host}/admin/.
 *
 * Like the service's own Dashboard it is not one of the tenant's
 * applications: it is computed, never stored. Its client_id is derived from
 * the tenant id, so it exists for every tenant, old or new, with nothing to
 * create or migrate and nothing to race on; the authentication surface finds
 * it through `IssuanceLookups.client` (src/domain/issuance/lookups.ts) and its
 * database connection (`consoleConnection`) through `loginConnections`, and
 * what its tokens hold, its consent and signup are the token policy's
 * (src/domain/issuance/token-policy.ts), while the Management API, which reads the
 * clients, client grants and connections tables, never sees it: GET /clients,
 * /client-grants and a connection's enabled_clients stay exactly the
 * tenant's own configuration (so an export and re-import by auth0-deploy-cli
 * round-trips unchanged).
 *
 * It is a public SPA (PKCE S256 required of it as of every public client),
 * first party (no consent page), with the authorization_code grant only;
 * its callback, web origin and logout URL are `https://{host}/admin/` for
 * every host that resolves to the tenant.
 */
import { createHash } from 'node:crypto';
import type { ClientRow, ConnectionRow } from '../rows.js';
import type { ConnectionStore } from '../connections/store.js';
import { DEFAULT_CONNECTION_NAME } from '../tenants/service.js';
import { columnsFromConfig, newClientConfig } from '../clients/model.js';
import { MANAGEMENT_SCOPES } from '../management-api/scopes.js';
import { isCurrentUserScope } from '../management-api/current-user.js';

const DATABASE_STRATEGY = 'auth0';
/** More database connections than any tenant has; a page of them is read in one query. */
const MAX_DATABASE_CONNECTIONS = 1000;

/** How every console client_id begins. */
const CONSOLE_ID_PREFIX = 'gh';

/** Where the console is served on each of the tenant's hosts. */
export const CONSOLE_PATH = '/admin/';

/** The console client's name (tenant logs, the login page's `${clientName}`). */
export const CONSOLE_CLIENT_NAME = 'Gatehouse Console';

/**
 * The Management API scopes an operator may hold: every one but the
 * `*:current_user*` family, which only ever lets a user act on itself and
 * means nothing to an operator's token (src/management/auth.ts).
 */
export const OPERATOR_SCOPES: readonly string[] = MANAGEMENT_SCOPES.filter((s) => !isCurrentUserScope(s));

/** The tenant's console client_id: 32 characters of [A-Za-z0-9], derived from the tenant id (public: config.json hands it out). */
export function consoleClientId(tenantId: string): string {
  const digest = createHash('sha256').update(`gatehouse-console:${tenantId}`, 'utf8').digest('base64');
  return `${CONSOLE_ID_PREFIX}${digest.replace(/[^A-Za-z0-9]/g, '').slice(0, 30)}`;
}

export function isConsoleClient(tenantId: string, clientId: string | undefined): boolean {
  // The prefix first: the token policy asks on every grant, and nearly every other client id fails it without a hash.
  return clientId !== undefined && clientId.startsWith(CONSOLE_ID_PREFIX) && clientId === consoleClientId(tenantId);
}

/** The console's address on a host: its callback and logout URL. */
export function consoleUrl(host: string): string {
  return `https://${host}${CONSOLE_PATH}`;
}

/** The client as the authentication surface reads it, for the hosts that resolve to the tenant. */
export function consoleClientRow(tenantId: string, hosts: readonly string[], createdAt: string): ClientRow {
  const urls = [...new Set(hosts.map(consoleUrl))];
  const origins = [...new Set(hosts.map((host) => `https://${host}`))];
  const config = newClientConfig({
    name: CONSOLE_CLIENT_NAME,
    description: 'The admin console (built in; not one of the tenant\'s applications)',
    app_type: 'spa',
    is_first_party: true,
    oidc_conformant: true,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    callbacks: urls,
    allowed_logout_urls: urls,
    web_origins: origins,
    allowed_origins: origins,
  });
  return {
    tenant_id: tenantId,
    client_id: consoleClientId(tenantId),
    global: 0,
    ...columnsFromConfig(config),
    client_secret_enc: null,
    created_at: createdAt,
    updated_at: createdAt,
    config,
  };
}

/**
 * The one database connection operators log in on through the console (and
 * the setup link creates the first operator on): the tenant's
 * `Username-Password-Authentication` when it is a database connection, else
 * its first database connection by name. One, not all: the login step can
 * only pick a connection by itself when the client has exactly one, so an
 * operator creating a second database connection must not lock the console.
 */
export async function consoleConnection(connections: Pick<ConnectionStore, 'getByName' | 'list'>, tenantId: string): Promise<ConnectionRow | undefined> {
  const named = await connections.getByName(tenantId, DEFAULT_CONNECTION_NAME);
  if (named?.strategy === DATABASE_STRATEGY) return named;
  const page = await connections.list(tenantId, { strategies: [DATABASE_STRATEGY] }, { kind: 'offset', offset: 0, limit: MAX_DATABASE_CONNECTIONS, withTotal: false });
  return [...page.rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
}
