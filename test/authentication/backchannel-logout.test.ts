/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0) on the real
 * app and database, with a real HTTPS receiver: the logout token's shape and
 * signature, the clients told (those the session issued tokens to, by their
 * `backchannel_logout_initiators`), the durable queue (the receiver down
 * during the logout and back later; the notification still delivered by a
 * new process on the same SQLite file or PostgreSQL database), and the
 * Management API's sessions. Time moves with the app's clock.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { createContext, createLogger } from '../../src/app/context.js';
import { BackchannelLogoutDelivery } from '../../src/domain/backchannel-logout/delivery.js';
import type { RuntimeContext } from '../../src/app/context.js';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { httpsFormPoster } from '../../src/platform/http/form-poster.js';
import { LOOPBACK_ALLOWED } from '../helpers/outbound.js';
import { freePort } from '../helpers/server-process.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, pkce, redirectParams } from '../helpers/browser.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://rp.example.com/callback';
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** An HTTPS relying party's back-channel logout endpoint: records the logout tokens it is sent; can be down. */
class Receiver {
  readonly tokens: string[] = [];
  #server: https.Server | undefined;
  constructor(
    private readonly tls: { cert: string; key: string },
    readonly port: number,
    private readonly status = 204,
  ) {}
  get url(): string {
    return `https://127.0.0.1:${this.port}/backchannel-logout`;
  }
  async up(): Promise<void> {
    this.#server = https.createServer(this.tls, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (token && req.headers['content-type'] === 'application/x-www-form-urlencoded') this.tokens.push(token);
        res.writeHead(token ? this.status : 400).end();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
  }
  async down(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = undefined;
  }
}

async function rpWorld(t: TestApp, receiver: Receiver, initiators?: Record<string, unknown>) {
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, { ...(body !== undefined && { body }) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.body}`);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  };
  const client = await api('POST', '/api/v2/clients', {
    name: 'RP',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [CALLBACK],
    allowed_logout_urls: [CALLBACK],
    grant_types: ['authorization_code'],
    oidc_logout: { backchannel_logout_urls: [receiver.url], ...(initiators && { backchannel_logout_initiators: initiators }) },
  });
  const clientId = client.client_id as string;
  const realm = `rp-users-${Math.random().toString(36).slice(2, 8)}`;
  await api('POST', '/api/v2/connections', { name: realm, strategy: 'auth0', enabled_clients: [clientId] });
  const email = `${realm}@example.com`;
  const user = await api('POST', '/api/v2/users', { connection: realm, email, password: PASSWORD });
  return { api, clientId, clientSecret: client.client_secret as string, email, realm, userId: user.user_id as string };
}

/** Logs in through /authorize and the code exchange; the browser (with its session) and the ID token's sid. */
async function logIn(t: TestApp, world: Awaited<ReturnType<typeof rpWorld>>) {
  const browser = new Browser(t);
  const { verifier, challenge } = pkce();
  const done = await browser.login(authorizeUrl(world.clientId, CALLBACK, { scope: 'openid', code_challenge: challenge }), world.email, PASSWORD);
  const code = redirectParams(done, CALLBACK).get('code')!;
  const res = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: world.clientId, client_secret: world.clientSecret, code, code_verifier: verifier, redirect_uri: CALLBACK });
  assert.equal(res.statusCode, 200, res.body);
  const idToken = (res.json() as { id_token: string }).id_token;
  const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  const { payload } = await jwtVerify(idToken, jwks, { audience: world.clientId });
  return { browser, sid: payload.sid as string, sub: payload.sub!, jwks };
}

const logout = (browser: Browser, clientId: string) => browser.get(`/v2/logout?client_id=${clientId}&returnTo=${encodeURIComponent(CALLBACK)}`);

describe('back-channel logout', () => {
  let tls: { cert: string; key: string };
  before(async () => {
    const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
    tls = { cert: material.certPem, key: material.keyPem };
  });

  describe('on one process', () => {
    let t: TestApp;
    let delivery: BackchannelLogoutDelivery;
    before(async () => {
      t = await createTestApp();
      delivery = new BackchannelLogoutDelivery(t.ctx, httpsFormPoster({ ca: tls.cert, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED }));
    });
    after(() => t.close());

    it('logging out posts a signed logout token; a receiver that was down gets it when it is back, after the backoff', async () => {
      const receiver = new Receiver(tls, await freePort());
      const world = await rpWorld(t, receiver);
      const { browser, sid, sub, jwks } = await logIn(t, world);
      const out = await logout(browser, world.clientId);
      assert.equal(out.statusCode, 302);

      // Down: the attempt fails and is retried 10 s later, not sooner.
      assert.deepEqual(await delivery.runOnce(), { delivered: 0, failed: 1, expiredSessions: 0 });
      const [queued] = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
      assert.equal(queued!.attempts, 1);
      assert.match(queued!.last_error!, /ECONNREFUSED/);
      await receiver.up();
      try {
        assert.deepEqual(await delivery.runOnce(), { delivered: 0, failed: 0, expiredSessions: 0 });
        assert.equal(receiver.tokens.length, 0);
        await withClockAdvanced(t, 10_000, async () => {
          assert.deepEqual(await delivery.runOnce(), { delivered: 1, failed: 0, expiredSessions: 0 });
          const token = receiver.tokens[0]!;
          assert.equal(decodeProtectedHeader(token).typ, 'logout+jwt');
          const { payload } = await jwtVerify(token, jwks, { issuer: `https://${DOMAIN}/`, audience: world.clientId, typ: 'logout+jwt', currentDate: new Date(t.ctx.now()) });
          assert.equal(payload.sid, sid);
          assert.equal(payload.sub, sub);
          assert.deepEqual(payload.events, { [EVENT]: {} });
          assert.equal(typeof payload.jti, 'string');
          assert.equal((payload as JWTPayload & { nonce?: string }).nonce, undefined);
        });
        // Delivered once: later rounds post nothing more.
        await withClockAdvanced(t, 3_600_000, async () => assert.deepEqual(await delivery.runOnce(), { delivered: 0, failed: 0, expiredSessions: 0 }));
        assert.equal(receiver.tokens.length, 1);
      } finally {
        await receiver.down();
      }
    });

    it('an error status is retried with growing delays, then given up', async () => {
      const receiver = new Receiver(tls, await freePort(), 500);
      const world = await rpWorld(t, receiver);
      const { browser } = await logIn(t, world);
      await logout(browser, world.clientId);
      await receiver.up();
      try {
        let elapsed = 0;
        const delays: number[] = [];
        for (let attempt = 1; attempt <= 15; attempt++) {
          await withClockAdvanced(t, elapsed, async () => assert.equal((await delivery.runOnce()).failed, 1, `attempt ${attempt}`));
          const [row] = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
          if (row!.gave_up_at !== null) break;
          // The clock is wall time moved forward: a delay is read to the second.
          const delay = Math.round((Date.parse(row!.next_attempt_at) - (t.ctx.now() + elapsed)) / 1000) * 1000;
          delays.push(delay);
          elapsed += delay + 1000;
        }
        assert.deepEqual(delays.slice(0, 4), [10_000, 20_000, 40_000, 80_000]);
        assert.equal(Math.max(...delays), 3_600_000);
        const [row] = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
        assert.equal(row!.attempts, 15);
        assert.notEqual(row!.gave_up_at, null);
        assert.equal(row!.last_error, 'HTTP 500');
        assert.equal(receiver.tokens.length, 15);
      } finally {
        await receiver.down();
      }
    });

    it('tells only the clients the session issued tokens to, by their initiators; a session ends once', async () => {
      const receiver = new Receiver(tls, await freePort());
      const rpLogoutOnly = await rpWorld(t, receiver);
      const { browser } = await logIn(t, rpLogoutOnly);
      // The default initiators do not include session-revoked.
      const revoked = await rpLogoutOnly.api('DELETE', `/api/v2/users/${encodeURIComponent(rpLogoutOnly.userId)}/sessions`);
      assert.deepEqual(revoked, {});
      assert.equal((await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, rpLogoutOnly.clientId)).length, 0);
      // The session is gone: a later logout announces nothing.
      await logout(browser, rpLogoutOnly.clientId);
      assert.equal((await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, rpLogoutOnly.clientId)).length, 0);

      const all = await rpWorld(t, receiver, { mode: 'all' });
      await logIn(t, all);
      await all.api('DELETE', `/api/v2/users/${encodeURIComponent(all.userId)}/sessions`);
      const rows = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, all.clientId);
      assert.deepEqual(rows.map((r) => r.initiator), ['session-revoked']);
    });

    it('deleting the user and the session expiring are announced to clients that ask for them', async () => {
      const receiver = new Receiver(tls, await freePort());
      const world = await rpWorld(t, receiver, { mode: 'custom', selected_initiators: ['account-deleted', 'session-expired'] });
      await logIn(t, world);
      await world.api('DELETE', `/api/v2/users/${encodeURIComponent(world.userId)}`);
      assert.deepEqual((await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId)).map((r) => r.initiator), ['account-deleted']);

      const expiring = await rpWorld(t, receiver, { mode: 'custom', selected_initiators: ['session-expired'] });
      const { sid } = await logIn(t, expiring);
      await withClockAdvanced(t, 3 * 86_400_000 + 1000, async () => {
        const round = await delivery.runOnce();
        assert.ok(round.expiredSessions >= 1);
      });
      const rows = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, expiring.clientId);
      assert.deepEqual(rows.map((r) => [r.initiator, r.sid]), [['session-expired', sid]]);
    });

    it('a new password is announced (password-changed) and ends the session', async () => {
      const receiver = new Receiver(tls, await freePort());
      const world = await rpWorld(t, receiver, { mode: 'custom', selected_initiators: ['password-changed'] });
      const { sid } = await logIn(t, world);
      await world.api('PATCH', `/api/v2/users/${encodeURIComponent(world.userId)}`, { password: 'Another horse battery staple 2', connection: world.realm });
      const rows = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
      assert.deepEqual(rows.map((r) => [r.initiator, r.sid]), [['password-changed', sid]]);
      assert.equal((await t.management('GET', `/api/v2/sessions/${encodeURIComponent(sid)}`)).statusCode, 404);
    });

    it('the Management API lists, gets and deletes sessions', async () => {
      const receiver = new Receiver(tls, await freePort());
      const world = await rpWorld(t, receiver, { mode: 'all' });
      const first = await logIn(t, world);
      const second = await logIn(t, world);
      const list = (await world.api('GET', `/api/v2/users/${encodeURIComponent(world.userId)}/sessions?take=1`)) as { sessions: { id: string; clients: { client_id: string }[] }[]; next?: string };
      assert.equal(list.sessions.length, 1);
      assert.ok(list.next);
      const rest = (await world.api('GET', `/api/v2/users/${encodeURIComponent(world.userId)}/sessions?take=1&from=${encodeURIComponent(list.next)}`)) as { sessions: { id: string }[]; next?: string };
      assert.deepEqual([list.sessions[0]!.id, rest.sessions[0]!.id].sort(), [first.sid, second.sid].sort());
      assert.equal(rest.next, undefined);
      const one = (await world.api('GET', `/api/v2/sessions/${encodeURIComponent(first.sid)}`)) as { id: string; user_id: string; clients: { client_id: string }[]; authentication: { methods: { name: string }[] } };
      assert.equal(one.user_id, world.userId);
      assert.deepEqual(one.clients, [{ client_id: world.clientId }]);
      assert.equal(one.authentication.methods[0]!.name, 'pwd');
      const deleted = await t.management('DELETE', `/api/v2/sessions/${encodeURIComponent(first.sid)}`);
      assert.equal(deleted.statusCode, 202);
      assert.equal((await t.management('GET', `/api/v2/sessions/${encodeURIComponent(first.sid)}`)).statusCode, 404);
      const rows = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
      assert.deepEqual(rows.map((r) => [r.initiator, r.sid]), [['session-revoked', first.sid]]);
      assert.equal((await t.management('GET', '/api/v2/users/auth0%7Cnobody/sessions')).statusCode, 404);
    });
  });

  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe(`across a restart (${dialect})`, async () => {
      const skip = dialect === 'postgres' && !(await postgresAvailable()) ? 'PostgreSQL is not available' : false;
      it('a notification queued while the receiver was down is delivered by the next process', { skip }, async () => {
        const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
        const t = await createTestApp({ ...(database && { env: { DATABASE_URL: database.url } }) });
        let restarted: RuntimeContext | undefined;
        try {
          const receiver = new Receiver(tls, await freePort());
          const world = await rpWorld(t, receiver);
          const { browser, sid } = await logIn(t, world);
          await logout(browser, world.clientId);
          const before = new BackchannelLogoutDelivery(t.ctx, httpsFormPoster({ ca: tls.cert, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED }));
          assert.equal((await before.runOnce()).failed, 1);
          // The process stops (its storage stays); the receiver comes back; another process starts on the same storage.
          await t.app.close();
          await t.ctx.close();
          await receiver.up();
          try {
            restarted = await createContext(t.config, createLogger(t.config));
            restarted.clock.advance(10_000);
            const after = new BackchannelLogoutDelivery(restarted, httpsFormPoster({ ca: tls.cert, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED }));
            assert.deepEqual(await after.runOnce(), { delivered: 1, failed: 0, expiredSessions: 0 });
            assert.equal(receiver.tokens.length, 1);
            const jwks = createLocalJWKSet(JSON.parse((await restarted.keyring.keys(t.tenant.id)).jwksJson) as JSONWebKeySet);
            const { payload } = await jwtVerify(receiver.tokens[0]!, jwks, { audience: world.clientId, currentDate: new Date(restarted.now()) });
            assert.equal(payload.sid, sid);
          } finally {
            await receiver.down();
          }
        } finally {
          await restarted?.close();
          const { rmSync } = await import('node:fs');
          rmSync(t.dataDir, { recursive: true, force: true });
          await database?.drop();
        }
      });
    });
  }
});
