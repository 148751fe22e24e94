/**
 * The test app's context served over real HTTPS (the app `startServer`
 * builds, with the self-signed certificate of the data directory) on a free
 * port of localhost, for the `auth0` SDK's ManagementClient: the tenant's
 * domain is `localhost:<port>`, and `sdk()` talks to it trusting exactly
 * that certificate. `other()` makes a second tenant, `127.0.0.1:<port>`,
 * on the same listener (for tenant isolation; the certificate names both).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { ManagementClient } from 'auth0';
import { buildApp } from '../../src/app/http.js';
import { loadTls } from '../../src/app/server.js';
import { createTestApp, type TestApp, type TestAppOptions } from './app.js';
import { freePort } from './server-process.js';
import { caFetch } from '../e2e/support/https.js';

export interface TenantAccess {
  /** The Host the tenant answers at. */
  host: string;
  /** A Management API token of the tenant's admin client, with `scope` if given (else every scope it was granted). */
  token(scope?: string): Promise<string>;
  /** The SDK as the tenant's admin client, with a token of `scope` if given. */
  sdk(scope?: string): Promise<ManagementClient>;
  /** A plain HTTPS request to the Management API (`path` after /api/v2), as the admin client unless `token` is given. */
  request(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<{ status: number; body: any }>;
}

export interface HttpsTestApp extends TenantAccess {
  t: TestApp;
  server: FastifyInstance;
  port: number;
  /** A second tenant, at `127.0.0.1:<port>` on the same listener (made once). */
  other(): Promise<TenantAccess>;
  close(): Promise<void>;
}

export async function createHttpsTestApp(options: TestAppOptions = {}): Promise<HttpsTestApp> {
  const port = await freePort();
  const domain = `localhost:${port}`;
  const t = await createTestApp({ ...options, env: { GATEHOUSE_DOMAIN: domain, ...options.env } });
  const tls = await loadTls(t.config);
  const server = await buildApp(t.ctx, { https: { key: tls.key, cert: tls.cert } });
  await server.listen({ port, host: 'localhost' });
  const trusted = caFetch(tls.cert);
  let other: Promise<TenantAccess> | undefined;

  const access = (host: string, clientId: string, clientSecret: string): TenantAccess => {
    const fetchHere = trusted as unknown as typeof fetch;
    const token = async (scope?: string) => {
      const res = await fetchHere(`https://${host}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `https://${host}/api/v2/`, ...(scope !== undefined && { scope }) }),
      });
      const body = (await res.json()) as { access_token?: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      return body.access_token!;
    };
    return {
      host,
      token,
      sdk: async (scope?: string) => new ManagementClient({ domain: host, token: await token(scope), maxRetries: 0, fetch: fetchHere }),
      async request(method, path, options = {}) {
        const res = await fetchHere(`https://${host}/api/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${options.token ?? (await token())}`, ...(options.body !== undefined && { 'content-type': 'application/json' }) },
          ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      },
    };
  };

  return {
    ...access(domain, t.admin.client_id, t.admin.client_secret),
    t,
    server,
    port,
    async other() {
      const host = `127.0.0.1:${port}`;
      other ??= t.ctx.tenants.create({ domain: host, name: 'other' }).then((created) => access(host, created.adminClientId, created.adminClientSecret));
      return other;
    },
    async close() {
      await server.close();
      await t.close();
    },
  };
}
