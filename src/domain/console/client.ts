/**
 * The admin console's client: one built-in first-party application per
 * tenant, through which an operator signs in to https://{host}/admin/.
 *
 * Like the service's own Dashboard it is not one of the tenant's
 * applications: it is computed, never stored. Its client_id is derived from
 * the tenant id, so it exists for every tenant, old or new, with nothing to
 * create or migrate and nothing to race on; the authentication surface finds
 * it through `IssuanceLookups.client` (src/domain/issuance/lookups.ts) and its
 * database connections through the connection store's `enabledForClient`
 * (src/app/console-client.ts), while the Management API, which reads the
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
import type { ClientRow } from '../rows.js';
import { columnsFromConfig, newClientConfig } from '../clients/model.js';
import { MANAGEMENT_SCOPES } from '../management-api/scopes.js';
import { isCurrentUserScope } from '../management-api/current-user.js';

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
  return `gh${digest.replace(/[^A-Za-z0-9]/g, '').slice(0, 30)}`;
}

export function isConsoleClient(tenantId: string, clientId: string | undefined): boolean {
  return clientId !== undefined && clientId === consoleClientId(tenantId);
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
