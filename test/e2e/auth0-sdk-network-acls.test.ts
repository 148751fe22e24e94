/**
 * Network ACLs driven by the official `auth0` SDK (ManagementClient, v7)
 * over real HTTPS against two server processes sharing PostgreSQL and Redis,
 * behind a trusted proxy (GATEHOUSE_TRUST_PROXY names the loopback, so
 * `X-Forwarded-For` gives the end user's address): a rule written through
 * process A refuses a blocked range at /authorize and /oauth/token of process
 * B as soon as Redis has carried the invalidation (the first request after
 * each write is retried for up to 5 s; the ones after it are not); an allow rule of lower priority number lets
 * one address of the range through; a log rule changes nothing; a redirect
 * rule sends 302; a rule of scope management refuses the Management API.
 * Every operation of /network-acls (list, create, get, set, update, delete)
 * is called, with the refusals: 400 (unsupported signals, bad ranges, two
 * actions, a malformed id), 409 (a taken priority), 404, 403 (scope) and the
 * per-tenant limit.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/postgres.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import { caFetch, cleanUp, httpsRequest, tokenBody, waitFor, type HttpResult } from './support/https.js';
import { sdkError } from './support/sdk-error.js';

const CALLBACK = 'https://rp.example.com/callback';
const available = (await postgresAvailable()) && (await redisAvailable());

describe('auth0 SDK: network ACLs across two processes (PostgreSQL + Redis)', { skip: !available && 'PostgreSQL or Redis is not reachable' }, () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let ca: Buffer;
  let management: ManagementClient;
  let rp: { clientId: string; clientSecret: string };

  /** GET /authorize at `server` from end-user address `ip` (through the trusted proxy). */
  const authorizeFrom = (server: ServerProcess, ip: string, headers: Record<string, string> = {}): Promise<HttpResult> => {
    const query = new URLSearchParams({ client_id: rp.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'st' });
    return httpsRequest(`https://localhost:${server.port}/authorize?${query}`, { ca, method: 'GET', headers: { host: a.domain, 'x-forwarded-for': ip, ...headers } });
  };
  /** A client_credentials request at /oauth/token from `ip`. */
  const tokenFrom = (server: ServerProcess, ip: string): Promise<HttpResult> =>
    httpsRequest(`https://localhost:${server.port}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { host: a.domain, 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: rp.clientId, client_secret: rp.clientSecret, audience: 'https://nothing.example.com' }),
    });
  const blocked = (res: HttpResult) => {
    assert.equal(res.status, 403, res.text.slice(0, 300));
    assert.deepEqual(res.json(), { error: 'access_denied', error_description: 'Access denied by the tenant network access control list' });
  };
  /** Not the ACL's refusal (the request may still fail for its own reasons). */
  const passes = (res: HttpResult) => assert.ok(!res.text.includes('network access control list'), `${res.status} ${res.text.slice(0, 300)}`);
  /**
   * The first request to the other process after a write: the invalidation reaches it through Redis
   * pub/sub, on another connection than the request's, so it is retried until it holds (5 s at most).
   */
  const settled = async (request: () => Promise<HttpResult>, check: (res: HttpResult) => void): Promise<void> => {
    let last: HttpResult | undefined;
    const held = (res: HttpResult) => {
      try {
        check(res);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(async () => held((last = await request())), 5_000);
    check(last!);
  };
  /** A Management API token of the admin client from process `server`, with `scope` if given. */
  async function adminToken(server: ServerProcess, scope?: string): Promise<string> {
    const admin = a.admin();
    const res = await httpsRequest(`https://localhost:${server.port}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { host: a.domain, 'content-type': 'application/json' },
      body: tokenBody(admin.client_id, admin.client_secret, `https://${a.domain}/api/v2/`, scope === undefined ? {} : { scope }),
    });
    assert.equal(res.status, 200, res.text);
    return res.json<{ access_token: string }>().access_token;
  }

  /** The id of the rule of `priority` (create answers no body through the SDK). */
  async function idOf(priority: number): Promise<string> {
    const page = await management.networkAcls.list();
    const acl = page.data.find((rule) => rule.priority === priority);
    assert.ok(acl?.id, `no rule of priority ${priority}`);
    return acl.id;
  }

  before(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL, GATEHOUSE_TRUST_PROXY: '127.0.0.1,::1', GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' };
    a = await startServerProcess({ env });
    b = await startServerProcess({ dataDir: a.dataDir, env: { ...env, GATEHOUSE_DOMAIN: a.domain } });
    ca = fs.readFileSync(a.certFile);
    const admin = a.admin();
    management = new ManagementClient({ domain: a.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    const client = await management.clients.create({ name: 'RP', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code', 'client_credentials'] });
    rp = { clientId: client.client_id!, clientSecret: client.client_secret! };
  });
  after(async () => {
    await cleanUp([b, a].filter(Boolean), [a?.dataDir].filter(Boolean) as string[]);
    await db?.drop();
  });

  it('a blocked range is refused at /authorize and /oauth/token of the other process at once; allow and log rules by priority', async () => {
    // Before any rule, both addresses pass.
    passes(await authorizeFrom(b, '203.0.113.7'));
    await management.networkAcls.create({ description: 'block the range', active: true, priority: 20, rule: { action: { block: true }, match: { ipv4_cidrs: ['203.0.113.0/24'] }, scope: 'authentication' } });
    await settled(() => authorizeFrom(b, '203.0.113.7'), blocked);
    blocked(await tokenFrom(b, '203.0.113.9'));
    blocked(await authorizeFrom(a, '203.0.113.200'));
    passes(await authorizeFrom(b, '198.51.100.1'));
    passes(await tokenFrom(b, '198.51.100.1'));
    // The range only, not the proxy's own address: a request without X-Forwarded-For passes.
    passes(await httpsRequest(`https://localhost:${b.port}/.well-known/openid-configuration`, { ca, method: 'GET', headers: { host: a.domain } }));

    // An allow rule evaluated first (lower number) lets one address through; the rest of the range stays blocked.
    await management.networkAcls.create({ description: 'one trusted address', active: true, priority: 10, rule: { action: { allow: true }, match: { ipv4_cidrs: ['203.0.113.7'] }, scope: 'tenant' } });
    await settled(() => authorizeFrom(b, '203.0.113.7'), passes);
    blocked(await authorizeFrom(b, '203.0.113.8'));
    // A log rule (monitoring mode) matching everything first changes nothing.
    await management.networkAcls.create({ description: 'watch everything', active: true, priority: 1, rule: { action: { log: true }, match: { ipv4_cidrs: ['0.0.0.0/0'], ipv6_cidrs: ['::/0'] }, scope: 'tenant' } });
    blocked(await authorizeFrom(b, '203.0.113.8'));
    passes(await authorizeFrom(b, '203.0.113.7'));

    // Signals of a rule all have to match: the TCP peer here is the loopback, not 10/8.
    await management.networkAcls.create({ description: 'both signals', active: true, priority: 30, rule: { action: { block: true }, match: { ipv4_cidrs: ['192.0.2.0/24'], connecting_ipv4_cidrs: ['10.0.0.0/8'] }, scope: 'authentication' } });
    passes(await authorizeFrom(b, '192.0.2.1'));
    // not_match: everything but one user agent is blocked for IPv6 documentation addresses.
    await management.networkAcls.create({ description: 'v6 with one agent only', active: true, priority: 40, rule: { action: { block: true }, match: { ipv6_cidrs: ['2001:db8::/32'] }, not_match: { user_agents: ['trusted-agent/1.0'] }, scope: 'authentication' } });
    await settled(() => authorizeFrom(b, '2001:db8::1'), blocked);
    passes(await authorizeFrom(b, '2001:db8::1', { 'user-agent': 'trusted-agent/1.0' }));

    // Deactivated through process A (PATCH), the block rule lets the range through process B.
    const blockId = await idOf(20);
    const updated = await management.networkAcls.update(blockId, { active: false });
    assert.equal(updated.active, false);
    assert.equal(updated.priority, 20);
    await settled(() => authorizeFrom(b, '203.0.113.8'), passes);
    // Replaced (PUT) by a redirect rule.
    const replaced = await management.networkAcls.set(blockId, { description: 'send them away', active: true, priority: 21, rule: { action: { redirect: true, redirect_uri: 'https://blocked.example.com/why' }, match: { ipv4_cidrs: ['203.0.113.0/24'] }, scope: 'authentication' } });
    assert.equal(replaced.priority, 21);
    assert.deepEqual(replaced.rule?.action, { redirect: true, redirect_uri: 'https://blocked.example.com/why' });
    await settled(
      () => authorizeFrom(b, '203.0.113.8'),
      (sent) => {
        assert.equal(sent.status, 302, sent.text);
        assert.equal(sent.headers.location, 'https://blocked.example.com/why');
      },
    );

    const got = await management.networkAcls.get(blockId);
    assert.equal(got.description, 'send them away');
    assert.match(got.id!, /^acl_[A-Za-z0-9]{22}$/);
    assert.ok(got.created_at && got.updated_at);
    await management.networkAcls.delete(blockId);
    await settled(() => authorizeFrom(b, '203.0.113.8'), passes);
    assert.equal((await sdkError(() => management.networkAcls.get(blockId))).statusCode, 404);

    // Paging: offset pages with totals, by priority.
    const page = await management.networkAcls.list({ page: 0, per_page: 2, include_totals: true });
    assert.deepEqual(page.data.map((rule) => rule.priority), [1, 10]);
    assert.equal(page.hasNextPage(), true);
    for (const priority of [1, 10, 30, 40]) await management.networkAcls.delete(await idOf(priority));
    assert.deepEqual((await management.networkAcls.list()).data, []);
  });

  it('a rule of scope management refuses the Management API from the range, not the Authentication API', async () => {
    await management.networkAcls.create({ description: 'no admin from there', active: true, priority: 5, rule: { action: { block: true }, match: { ipv4_cidrs: ['198.51.100.0/24'] }, scope: 'management' } });
    const token = await adminToken(b);
    const clientsFromRange = () => httpsRequest(`https://localhost:${b.port}/api/v2/clients`, { ca, method: 'GET', headers: { host: a.domain, authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.20' } });
    await settled(clientsFromRange, (fromRange) => {
      assert.equal(fromRange.status, 403, fromRange.text);
      assert.deepEqual(fromRange.json(), { statusCode: 403, error: 'Forbidden', message: 'Access denied by the tenant network access control list' });
    });
    passes(await authorizeFrom(b, '198.51.100.20'));
    await management.networkAcls.delete(await idOf(5));
    await settled(clientsFromRange, (unblocked) => assert.equal(unblocked.status, 200, unblocked.text));
  });

  it('refuses bad rules (400), a taken priority (409), unknown ids (404), a missing scope (403) and an eleventh rule', async () => {
    const rule = (match: Record<string, unknown>, action: Record<string, unknown> = { block: true }) => ({ description: 'x', active: true, priority: 60, rule: { action, match, scope: 'authentication' as const } });
    const cases: [string, unknown][] = [
      ['rule.match.geo_country_codes', rule({ geo_country_codes: ['FR'] })],
      ['rule.match.asns', rule({ asns: [64500] })],
      ['rule.match.ja3_fingerprints', rule({ ja3_fingerprints: ['abc'] })],
      ['rule.match.ipv4_cidrs[1]', rule({ ipv4_cidrs: ['10.0.0.0/8', '10.0.0.0/33'] })],
      ['rule.match.ipv6_cidrs[0]', rule({ ipv6_cidrs: ['10.0.0.1'] })],
      ['rule.action', rule({ ipv4_cidrs: ['10.0.0.0/8'] }, { block: true, allow: true })],
      ['rule.action.redirect_uri', rule({ ipv4_cidrs: ['10.0.0.0/8'] }, { redirect: true, redirect_uri: 'http://plain.example.com' })],
    ];
    for (const [property, body] of cases) {
      const error = await sdkError(() => management.networkAcls.create(body as Parameters<ManagementClient['networkAcls']['create']>[0]));
      assert.equal(error.statusCode, 400, property);
      assert.equal(error.body.errorCode, 'invalid_body', property);
      assert.ok(error.body.message.includes(`on property ${property}`), `${property}: ${error.body.message}`);
    }
    const repeated = await sdkError(() => management.networkAcls.create(rule({ ipv4_cidrs: ['10.0.0.1', '10.0.0.1'] })));
    assert.equal(repeated.statusCode, 400);
    assert.equal(repeated.body.errorCode, 'invalid_body');
    const noMatch = await sdkError(() => management.networkAcls.create({ description: 'x', active: true, rule: { action: { block: true }, scope: 'tenant' } }));
    assert.equal(noMatch.statusCode, 400);

    await management.networkAcls.create(rule({ ipv4_cidrs: ['10.1.0.0/16'] }));
    const taken = await sdkError(() => management.networkAcls.create(rule({ ipv4_cidrs: ['10.2.0.0/16'] })));
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.body.message, 'A Network ACL with this priority number has already been created.');
    const other = await idOf(60);
    await management.networkAcls.create({ ...rule({ ipv4_cidrs: ['10.2.0.0/16'] }), priority: 61 });
    const sixtyOne = await idOf(61);
    assert.equal((await sdkError(() => management.networkAcls.update(sixtyOne, { priority: 60 }))).statusCode, 409);

    assert.equal((await sdkError(() => management.networkAcls.get('acl_0000000000000000000000'))).statusCode, 404);
    assert.equal((await sdkError(() => management.networkAcls.update('acl_0000000000000000000000', { active: false }))).statusCode, 404);
    const malformed = await sdkError(() => management.networkAcls.delete('not-an-acl'));
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.body.errorCode, 'invalid_uri');
    assert.equal(malformed.body.message, "Network ACL id is not a valid ACL ID in the form 'acl_XXXXXXXXXXXXXXXXXXXXXX'");

    const readOnly = new ManagementClient({ domain: a.domain, token: await adminToken(a, 'read:network_acls'), maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    assert.equal((await readOnly.networkAcls.get(other)).priority, 60);
    const forbidden = await sdkError(() => readOnly.networkAcls.delete(other));
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.body.message, 'Insufficient scope, expected any of: delete:network_acls');

    // Ten rules per tenant.
    for (let priority = 62; priority < 70; priority++) await management.networkAcls.create({ ...rule({ ipv4_cidrs: ['10.3.0.0/16'] }), priority });
    const eleventh = await sdkError(() => management.networkAcls.create({ ...rule({ ipv4_cidrs: ['10.3.0.0/16'] }), priority: 70 }));
    assert.equal(eleventh.statusCode, 400);
    assert.equal(eleventh.body.errorCode, 'entity_limit_exceeded');
  });
});
