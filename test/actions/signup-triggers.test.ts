/**
 * pre-user-registration at /dbconnections/signup and on the hosted signup
 * page, through app.inject on the real app, real sandbox processes and the
 * real database: a deny refuses the signup with the action's message for the
 * user (the page shows it), metadata set by the action is the new user's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { bindActions } from '../helpers/actions.js';
import { hidden, Jar } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const REFUSE_DOMAIN = `exports.onExecutePreUserRegistration = async (event, api) => {
  if (event.user.email.endsWith('@blocked.example')) return api.access.deny('blocked domain ' + event.request.ip, 'Sign up with your work address, please.');
  api.user.setAppMetadata('source', 'signup ' + event.connection.name);
};`;

describe('pre-user-registration', () => {
  let t: TestApp;
  let web: TestClient;

  const signup = (email: string) =>
    t.app.inject({ method: 'POST', url: '/dbconnections/signup', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: { client_id: web.client_id, connection: REALM, email, password: PASSWORD } });

  before(async () => {
    t = await createTestApp();
    web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    await bindActions(t, 'pre-user-registration', [{ name: 'domains', code: REFUSE_DOMAIN }]);
  });
  after(() => t.close());

  it('/dbconnections/signup: refused with the message for the user; no user is created', async () => {
    const res = await signup('eve@blocked.example');
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), { name: 'BadRequestError', code: 'extensibility_error', description: 'Sign up with your work address, please.', statusCode: 400 });
    const users = (await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent('eve@blocked.example')}`)).json() as unknown[];
    assert.deepEqual(users, []);
  });

  it('/dbconnections/signup: metadata the action sets is the new user\'s', async () => {
    const res = await signup('ann@example.com');
    assert.equal(res.statusCode, 200, res.body);
    const [user] = (await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent('ann@example.com')}`)).json() as { app_metadata: unknown }[];
    assert.deepEqual(user!.app_metadata, { source: `signup ${REALM}` });
  });

  it('the hosted signup page shows the action\'s message', async () => {
    const jar = new Jar();
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, cookie: jar.header() } });
      jar.take(res);
      return res;
    };
    const start = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', screen_hint: 'signup' })}`);
    assert.equal(start.statusCode, 302, start.body);
    const page = await get(start.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'mallory@blocked.example', password: PASSWORD };
    const refused = await t.app.inject({ method: 'POST', url: '/signup', headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, payload: new URLSearchParams(form).toString() });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /Sign up with your work address, please\./);
  });
});
