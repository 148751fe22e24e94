/**
 * Which address brute-force protection and the change-password limit count
 * against: the TCP peer unless GATEHOUSE_TRUST_PROXY names the proxy (then
 * X-Forwarded-For), and at the token endpoint `auth0-forwarded-for` (or
 * `service-forwarded-for`) only from a confidential client with
 * `is_token_endpoint_ip_header_trusted`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_FAILURES, type UserBlock } from '../../src/domain/brute-force.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

interface Setup {
  t: TestApp;
  trusted: TestClient;
  untrusted: TestClient;
  spa: TestClient;
}

async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const t = await createTestApp({ env });
  const grants = [PASSWORD_REALM];
  const trusted = await insertClient(t, { grant_types: grants, config: { is_token_endpoint_ip_header_trusted: true } });
  const untrusted = await insertClient(t, { grant_types: grants });
  const spa = await insertClient(t, {
    grant_types: grants,
    token_endpoint_auth_method: 'none',
    client_secret_enc: null,
    // Even a public client flagged as trusting the header is not believed: it has no secret to prove it is the client.
    config: { is_token_endpoint_ip_header_trusted: true },
  });
  const conn = await t.management('POST', '/api/v2/connections', {
    body: { name: REALM, strategy: 'auth0', enabled_clients: [trusted.client_id, untrusted.client_id, spa.client_id] },
  });
  assert.equal(conn.statusCode, 201, conn.body);
  for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com', 'f@example.com']) {
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  }
  return { t, trusted, untrusted, spa };
}

/** MAX_FAILURES wrong passwords for `username` with these headers from `peer`; then the IPs it is blocked under. */
async function failLogins(s: Setup, client: TestClient, username: string, peer: string, headers: (i: number) => Record<string, string>): Promise<string[]> {
  for (let i = 0; i < MAX_FAILURES; i++) {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: peer,
      headers: { host: DOMAIN, 'content-type': 'application/json', ...headers(i) },
      payload: {
        grant_type: PASSWORD_REALM,
        client_id: client.client_id,
        ...(client.client_secret && client !== s.spa && { client_secret: client.client_secret }),
        username,
        password: 'wrong',
        realm: REALM,
      },
    });
    assert.equal(res.statusCode, 403, res.body);
  }
  const blocks = await s.t.management('GET', `/api/v2/user-blocks?identifier=${encodeURIComponent(username)}`);
  assert.equal(blocks.statusCode, 200, blocks.body);
  return (blocks.json() as { blocked_for: UserBlock[] }).blocked_for.map((b) => b.ip).sort();
}

describe('end-user IP: no trusted proxy (the default)', () => {
  let s: Setup;
  before(async () => {
    s = await setup();
  });
  after(() => s.t.close());

  it('a forged X-Forwarded-For is ignored: failures count against the TCP peer', async () => {
    const ips = await failLogins(s, s.untrusted, 'a@example.com', '10.9.9.9', (i) => ({ 'x-forwarded-for': `203.0.113.${i}` }));
    assert.deepEqual(ips, ['10.9.9.9']);
  });

  it('auth0-forwarded-for from a confidential client that trusts it names the end user', async () => {
    const ips = await failLogins(s, s.trusted, 'b@example.com', '10.9.9.9', () => ({ 'auth0-forwarded-for': '198.51.100.7' }));
    assert.deepEqual(ips, ['198.51.100.7']);
    // Spreading failures over addresses it names is the client's own responsibility: each address is its own key.
    const spread = await failLogins(s, s.trusted, 'c@example.com', '10.9.9.9', (i) => ({ 'service-forwarded-for': `198.51.100.${i % 2}` }));
    assert.deepEqual(spread, [], 'five failures per address: nothing blocked');
  });

  it('a spoofed auth0-forwarded-for from a client that does not trust it, or from a public client, is ignored', async () => {
    const untrusted = await failLogins(s, s.untrusted, 'd@example.com', '10.7.7.7', (i) => ({ 'auth0-forwarded-for': `198.51.100.${i}` }));
    assert.deepEqual(untrusted, ['10.7.7.7']);
    const publicClient = await failLogins(s, s.spa, 'e@example.com', '10.6.6.6', (i) => ({ 'auth0-forwarded-for': `198.51.100.${i}` }));
    assert.deepEqual(publicClient, ['10.6.6.6']);
  });

  it('a value that is not an IP address is ignored', async () => {
    const ips = await failLogins(s, s.trusted, 'f@example.com', '10.5.5.5', () => ({ 'auth0-forwarded-for': 'not-an-ip, 1.2.3.4' }));
    assert.deepEqual(ips, ['10.5.5.5']);
  });
});

describe('end-user IP: GATEHOUSE_TRUST_PROXY', () => {
  let byAddress: Setup;
  let byHops: Setup;
  before(async () => {
    byAddress = await setup({ GATEHOUSE_TRUST_PROXY: '10.0.0.0/8' });
    byHops = await setup({ GATEHOUSE_TRUST_PROXY: '1' });
  });
  after(async () => {
    await byAddress.t.close();
    await byHops.t.close();
  });

  it('a trusted proxy (by range) forwards the end user address; the same header from elsewhere is ignored', async () => {
    const viaProxy = await failLogins(byAddress, byAddress.untrusted, 'a@example.com', '10.1.2.3', () => ({ 'x-forwarded-for': '203.0.113.50' }));
    assert.deepEqual(viaProxy, ['203.0.113.50']);
    const direct = await failLogins(byAddress, byAddress.untrusted, 'b@example.com', '192.0.2.1', () => ({ 'x-forwarded-for': '203.0.113.51' }));
    assert.deepEqual(direct, ['192.0.2.1']);
  });

  it('a hop count of 1 takes the last address the proxy appended, not what the client put before it', async () => {
    const ips = await failLogins(byHops, byHops.untrusted, 'c@example.com', '10.1.2.3', () => ({ 'x-forwarded-for': '6.6.6.6, 203.0.113.60' }));
    assert.deepEqual(ips, ['203.0.113.60']);
  });

  it('the change-password limit keys on the forwarded address', async () => {
    const request = (forwarded: string) =>
      byAddress.t.app.inject({
        method: 'POST',
        url: '/dbconnections/change_password',
        remoteAddress: '10.1.2.3',
        headers: { host: DOMAIN, 'content-type': 'application/json', 'x-forwarded-for': forwarded },
        payload: { client_id: byAddress.untrusted.client_id, email: 'd@example.com', connection: REALM },
      });
    for (let i = 0; i < 10; i++) assert.equal((await request('203.0.113.70')).statusCode, 200);
    const limited = await request('203.0.113.70');
    assert.equal(limited.statusCode, 429, limited.body);
    const otherUser = await request('203.0.113.71');
    assert.equal(otherUser.statusCode, 200, 'another end user behind the same proxy is not limited');
  });
});
