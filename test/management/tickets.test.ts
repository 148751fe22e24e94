/**
 * POST /api/v2/tickets/password-change and /tickets/email-verification: the
 * links go through the hosted reset-password and verify-email pages, which
 * honour result_url, includeEmailInRedirect, mark_email_as_verified and
 * ttl_sec; refusals in the Management shape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const NEW_PASSWORD = 'A brand new passphrase 42';

describe('/api/v2/tickets', () => {
  let t: TestApp;
  let client: TestClient;
  let connectionId: string;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const res = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    connectionId = res.json().id;
  });
  after(() => t.close());

  async function user(email: string): Promise<string> {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: 'Initial passphrase 1', verify_email: false } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().user_id;
  }
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN } });
  const pathOf = (ticket: string) => {
    const url = new URL(ticket);
    assert.equal(url.host, DOMAIN);
    return url.pathname + url.search;
  };
  const post = (path: string, form: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: path, headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
  const verified = async (id: string) => (await t.management('GET', `/api/v2/users/${encodeURIComponent(id)}`)).json().email_verified as boolean;
  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/oauth/token', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username, password, realm: REALM } });

  async function resetThrough(ticket: string): Promise<string | undefined> {
    const form = await get(pathOf(ticket));
    assert.equal(form.statusCode, 200, form.body);
    const done = await post('/reset-password', { ticket: hidden(form.body, 'ticket'), csrf_token: hidden(form.body, 'csrf_token'), password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    assert.ok(done.statusCode === 200 || done.statusCode === 302, done.body);
    return done.headers.location as string | undefined;
  }

  it('password-change: the link resets the password, verifies the address when asked and redirects to result_url with the email', async () => {
    const id = await user('Pat@Example.com');
    const res = await t.management('POST', '/api/v2/tickets/password-change', {
      body: { user_id: id, result_url: 'https://app.example/after?from=ticket', mark_email_as_verified: true, includeEmailInRedirect: true, ttl_sec: 0 },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(Object.keys(res.json()), ['ticket']);
    assert.match(res.json().ticket, new RegExp(`^https://${DOMAIN}/reset-password\\?ticket=`));
    const location = new URL((await resetThrough(res.json().ticket))!);
    assert.equal(location.origin + location.pathname, 'https://app.example/after');
    assert.equal(location.searchParams.get('from'), 'ticket');
    assert.equal(location.searchParams.get('email'), 'Pat@Example.com');
    assert.equal(location.searchParams.get('success'), 'true');
    assert.equal(location.searchParams.get('message'), 'You can now login to the application with the new password.');
    assert.equal(await verified(id), true);
    assert.equal((await login('pat@example.com', NEW_PASSWORD)).statusCode, 200);
    assert.equal((await get(pathOf(res.json().ticket))).statusCode, 400, 'used once');
  });

  it('password-change by connection and email, without marking the address, ending on the page itself', async () => {
    const id = await user('quin@example.com');
    const res = await t.management('POST', '/api/v2/tickets/password-change', { body: { connection_id: connectionId, email: 'QUIN@example.com' } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await resetThrough(res.json().ticket), undefined);
    assert.equal(await verified(id), false);
  });

  it('ttl_sec bounds the link', async () => {
    const id = await user('tess@example.com');
    const res = await t.management('POST', '/api/v2/tickets/password-change', { body: { user_id: id, ttl_sec: 60 } });
    const path = pathOf(res.json().ticket);
    assert.equal((await withClockAdvanced(t, 59_000, () => get(path))).statusCode, 200);
    assert.equal((await withClockAdvanced(t, 61_000, () => get(path))).statusCode, 400);
  });

  it('email-verification: the link verifies the address and redirects to result_url', async () => {
    const id = await user('vera@example.com');
    const res = await t.management('POST', '/api/v2/tickets/email-verification', { body: { user_id: id, result_url: 'https://app.example/verified', includeEmailInRedirect: false } });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.json().ticket, new RegExp(`^https://${DOMAIN}/verify-email\\?ticket=`));
    const page = await get(pathOf(res.json().ticket));
    assert.equal(page.statusCode, 200);
    assert.equal(await verified(id), false, 'showing the page changes nothing');
    const done = await post('/verify-email', { ticket: hidden(page.body, 'ticket'), csrf_token: hidden(page.body, 'csrf_token') });
    assert.equal(done.statusCode, 302, done.body);
    const location = new URL(done.headers.location as string);
    assert.equal(location.origin + location.pathname, 'https://app.example/verified');
    assert.equal(location.searchParams.get('email'), null);
    assert.equal(location.searchParams.get('success'), 'true');
    assert.equal(await verified(id), true);
  });

  it('refuses what the service refuses, in the Management shape', async () => {
    const id = await user('rex@example.com');
    const cases: [string, unknown, number, string?][] = [
      ['/tickets/password-change', { user_id: id, email: 'rex@example.com', connection_id: connectionId }, 400],
      ['/tickets/password-change', { email: 'rex@example.com' }, 400],
      ['/tickets/password-change', {}, 400],
      ['/tickets/password-change', { user_id: id, result_url: 'https://a.example', organization_id: 'org_1' }, 400],
      ['/tickets/password-change', { user_id: id, result_url: 'javascript:alert(1)' }, 400],
      ['/tickets/password-change', { user_id: id, ttl_sec: -1 }, 400],
      ['/tickets/password-change', { user_id: id, ttl_sec: 31 * 24 * 3600 }, 400],
      ['/tickets/password-change', { user_id: id, surprise: true }, 400],
      ['/tickets/password-change', { user_id: 'auth0|nobody' }, 404, 'inexistent_user'],
      ['/tickets/password-change', { user_id: id, client_id: 'nope' }, 400, 'inexistent_client'],
      ['/tickets/email-verification', {}, 400],
      ['/tickets/email-verification', { user_id: id, result_url: 'https://a.example', client_id: client.client_id }, 400],
      ['/tickets/email-verification', { user_id: 'auth0|nobody' }, 404, 'inexistent_user'],
    ];
    for (const [url, body, status, code] of cases) {
      const res = await t.management('POST', `/api/v2${url}`, { body });
      assert.equal(res.statusCode, status, `${url} ${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, status === 404 ? 'Not Found' : 'Bad Request');
      if (code) assert.equal(res.json().errorCode, code);
    }
    const scoped = await t.management('POST', '/api/v2/tickets/password-change', { body: { user_id: id }, token: await t.managementToken('read:users') });
    assert.equal(scoped.statusCode, 403);
    const rows = await t.ctx.database.db.selectFrom('tickets').select('id_hash').where('user_id', '=', id).execute();
    assert.equal(rows.length, 0, 'no refused request made a ticket');
  });
});
