/**
 * An in-process Gatehouse for route tests: the real app and the real embedded
 * database (SQLite in a temporary directory, or PostgreSQL), driven through
 * `app.inject()`. No query mocks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { createContext, createLogger, ensureDefaultTenant, type AdminCredentials } from '../../src/app/context.js';
import { buildApp } from '../../src/app/http.js';
import type { AuthenticationRegistries } from '../../src/authentication/registries.js';
import type { Tenant } from '../../src/domain/tenants/tenant.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import type { RuntimeContext } from '../../src/app/context.js';

export const DOMAIN = 'tenant.test';

export interface TestApp {
  app: FastifyInstance;
  ctx: RuntimeContext;
  config: Config;
  tenant: Tenant;
  admin: AdminCredentials;
  dataDir: string;
  /** POST /oauth/token as the admin client for the Management API; returns the access token. */
  managementToken(scope?: string): Promise<string>;
  /** A Management API call with a bearer token. */
  management(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  postgres?: boolean;
  env?: Record<string, string>;
  /** The Authentication API's registries (tests that add a grant, method, mode or step). */
  registries?: AuthenticationRegistries;
}

export function tempDir(prefix = 'gatehouse-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = tempDir();
  let database: TestDatabase | undefined;
  if (options.postgres) database = await createTestDatabase();
  const config = loadConfig({
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DOMAIN: DOMAIN,
    LOG_LEVEL: 'silent',
    // Route tests must not trip the default limits; rate-limit tests set their own.
    GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000',
    GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '100000/100000',
    // Route tests build the connections they need (test/e2e/first-run.test.ts covers the default one).
    GATEHOUSE_DEFAULT_CONNECTION: '0',
    ...(database && { DATABASE_URL: database.url }),
    ...options.env,
  });
  const ctx = await createContext(config, createLogger(config));
  const { tenant, credentials } = await ensureDefaultTenant(ctx);
  if (!credentials) throw new Error('expected a fresh tenant');
  const app = await buildApp(ctx, options.registries ? { registries: options.registries } : {});
  await app.ready();

  const testApp: TestApp = {
    app,
    ctx,
    config,
    tenant,
    admin: credentials,
    dataDir,
    async managementToken(scope?: string) {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { host: DOMAIN, 'content-type': 'application/json' },
        payload: {
          grant_type: 'client_credentials',
          client_id: credentials.client_id,
          client_secret: credentials.client_secret,
          audience: credentials.audience,
          ...(scope !== undefined && { scope }),
        },
      });
      if (response.statusCode !== 200) throw new Error(`token request failed: ${response.statusCode} ${response.body}`);
      return (response.json() as { access_token: string }).access_token;
    },
    async management(method, url, opts = {}) {
      const token = opts.token ?? (await testApp.managementToken());
      const headers: Record<string, string> = { host: DOMAIN, authorization: `Bearer ${token}`, ...opts.headers };
      if (opts.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      return app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(opts.body !== undefined && { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }),
      });
    },
    async close() {
      await app.close();
      await ctx.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/**
 * A second Gatehouse process on the test app's database and settings (its
 * own context, caches and app), for what must reach every process (cache
 * invalidation through Redis); closed after `fn`, the test app too.
 */
export async function withSecondProcess<T>(t: TestApp, fn: (other: FastifyInstance) => Promise<T>): Promise<T> {
  const ctx = await createContext(t.config, createLogger(t.config));
  const other = await buildApp(ctx);
  try {
    return await fn(other);
  } finally {
    await other.close();
    await ctx.close();
    await t.close();
  }
}

/** Runs `fn` with the app's one clock moved `ms` forward, then moves it back: a test crosses an expiry without sleeping. */
export async function withClockAdvanced<T>(t: TestApp, ms: number, fn: () => Promise<T>): Promise<T> {
  t.ctx.clock.advance(ms);
  try {
    return await fn();
  } finally {
    t.ctx.clock.advance(-ms);
  }
}

/** POST /oauth/token with a JSON body (or a form when `form` is set). */
export function tokenRequest(
  app: FastifyInstance,
  body: Record<string, string> | string,
  options: { form?: boolean; headers?: Record<string, string>; host?: string } = {},
): Promise<LightMyRequestResponse> {
  const form = options.form === true;
  const payload =
    typeof body === 'string' ? body : form ? new URLSearchParams(body).toString() : JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      host: options.host ?? DOMAIN,
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...options.headers,
    },
    payload,
  });
}
