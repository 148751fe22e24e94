/**
 * The official `auth0` SDK's ManagementClient over the test app in process:
 * its requests, paths and bodies exactly as it sends them, answered by
 * app.inject (no socket), with the tenant's Management token.
 */
import { ManagementClient } from 'auth0';
import { DOMAIN, type TestApp } from './app.js';

export async function inProcessSdk(t: TestApp): Promise<ManagementClient> {
  const token = await t.managementToken();
  const inProcess: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const res = await t.app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: { ...Object.fromEntries(request.headers), host: DOMAIN },
      ...(request.body ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
    });
    const empty = res.statusCode === 204 || (res.statusCode === 201 && res.rawPayload.length === 0);
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
  };
  return new ManagementClient({ domain: DOMAIN, token, maxRetries: 0, fetch: inProcess });
}
