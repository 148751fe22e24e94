/**
 * The `auth0` SDK's ManagementClient talking to the test app in process:
 * its `fetch` hands each request to Fastify's inject, so the SDK's own
 * calls (paths, bodies, headers) reach the real routes without a socket.
 */
import { ManagementClient } from 'auth0';
import { DOMAIN, type TestApp } from './app.js';

export function inProcessFetch(t: TestApp): typeof fetch {
  return async (input, init) => {
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
}

export async function inProcessSdk(t: TestApp, token?: string): Promise<ManagementClient> {
  return new ManagementClient({ domain: DOMAIN, token: token ?? (await t.managementToken()), maxRetries: 0, fetch: inProcessFetch(t) });
}
