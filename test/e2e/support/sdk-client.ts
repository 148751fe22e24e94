/**
 * The official `auth0` SDK's ManagementClient against a server process of
 * the tests, over its HTTPS with the test CA: as the tenant's admin client
 * (client credentials, the SDK fetching its own token), or holding a token
 * with only the scopes given (for the 403 refusals).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ManagementClient } from 'auth0';
import type { ServerProcess } from '../../helpers/server-process.js';
import { caFetch, httpsRequest, tokenBody } from './https.js';

export function adminManagementClient(server: ServerProcess): ManagementClient {
  const admin = server.admin();
  const ca = fs.readFileSync(server.certFile);
  return new ManagementClient({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
}

export async function scopedManagementClient(server: ServerProcess, scope: string): Promise<ManagementClient> {
  const admin = server.admin();
  const ca = fs.readFileSync(server.certFile);
  const res = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody(admin.client_id, admin.client_secret, admin.audience, { scope }) });
  assert.equal(res.status, 200, res.text);
  return new ManagementClient({ domain: server.domain, token: res.json<{ access_token: string }>().access_token, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
}
