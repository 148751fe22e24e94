/**
 * The Management API's catch-all (src/management/not-available/) through the
 * real app: operations of the service that Gatehouse lacks answer in the
 * Management API's error shape with `not_available_in_gatehouse`, after the
 * same authentication and scope check as any operation; deprecated and
 * never-used lists answer empty; paths no service has stay the plain 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serviceOperation, serviceOperations } from '../../src/management/not-available/operations.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('/api/v2: operations of the service Gatehouse does not implement', () => {
  let t: TestApp;
  const api = (method: string, url: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) => t.management(method, url, options);

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('finds the service operation of a request by the OpenAPI document\'s templates', () => {
    assert.deepEqual(serviceOperation('GET', '/rules/rul_1'), { method: 'GET', template: '/rules/{id}', scopes: ['read:rules'] });
    assert.equal(serviceOperation('GET', '/organizations/name/acme')?.template, '/organizations/name/{name}');
    assert.equal(serviceOperation('PUT', '/rules/rul_1'), undefined, 'the service has no PUT on a rule');
    assert.equal(serviceOperation('GET', '/nothing-here'), undefined);
    assert.equal(serviceOperation('GET', '/rules/a/b'), undefined, 'a parameter never spans segments');
  });

  it('answers an operation it lacks with the error shape, its template and errorCode not_available_in_gatehouse', async () => {
    const res = await api('POST', '/api/v2/rules', { body: { name: 'r', script: 'function (u, c, cb) { cb(null, u, c); }' } });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), {
      statusCode: 404,
      error: 'Not Found',
      message: 'This operation of the Management API is not available in Gatehouse: POST /api/v2/rules',
      errorCode: 'not_available_in_gatehouse',
    });
    const withId = await api('PATCH', '/api/v2/flows/af_0123?x=1', { body: {} });
    assert.equal(withId.statusCode, 404);
    assert.match((withId.json() as { message: string }).message, /: PATCH \/api\/v2\/flows\/\{id\}$/, 'the template, never the request\'s own path');
  });

  it('answers before reading the body: a multipart upload gets the same answer, not 415', async () => {
    const boundary = 'x-boundary';
    const res = await t.management('POST', '/api/v2/rules', {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="connection_id"\r\n\r\ncon_1\r\n--${boundary}--\r\n`,
    });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal((res.json() as { errorCode: string }).errorCode, 'not_available_in_gatehouse');
  });

  it('authenticates and checks the scopes the service\'s document gives the operation', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v2/forms', headers: { host: t.tenant.domain } });
    assert.equal(missing.statusCode, 401);
    const token = await t.managementToken('read:clients');
    const narrow = await api('GET', '/api/v2/forms', { token });
    assert.equal(narrow.statusCode, 403);
    assert.deepEqual(narrow.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: read:forms', errorCode: 'insufficient_scope' });
  });

  it('leaves a path no service has to the plain 404, without authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/nothing-here', headers: { host: t.tenant.domain } });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'Not Found' });
  });

  it('answers the deprecated rules, rules configs and hooks as a tenant that never used them', async () => {
    assert.deepEqual((await api('GET', '/api/v2/rules')).json(), []);
    assert.deepEqual((await api('GET', '/api/v2/rules?include_totals=true&page=2&per_page=10')).json(), { rules: [], start: 20, limit: 10, total: 0 });
    assert.deepEqual((await api('GET', '/api/v2/rules-configs')).json(), []);
    assert.deepEqual((await api('GET', '/api/v2/hooks?include_totals=true')).json(), { hooks: [], start: 0, limit: 50, total: 0 });
    const bad = await api('GET', '/api/v2/rules?per_page=1000');
    assert.equal(bad.statusCode, 400);
    assert.equal((bad.json() as { errorCode: string }).errorCode, 'invalid_query_string');
    assert.equal((await api('GET', '/api/v2/rules?page=-1')).statusCode, 400);
    // Reading one is still not available.
    assert.equal((await api('GET', '/api/v2/rules/rul_1')).statusCode, 404);
  });

  it('answers the lists deploy tools read without a way to skip them as empty, in the document\'s shapes', async () => {
    assert.deepEqual((await api('GET', '/api/v2/forms?include_totals=true')).json(), { forms: [], start: 0, limit: 50, total: 0 });
    assert.deepEqual((await api('GET', '/api/v2/flows/vault/connections?include_totals=true')).json(), { connections: [], start: 0, limit: 50, total: 0 });
    assert.deepEqual((await api('GET', '/api/v2/self-service-profiles?include_totals=true')).json(), { self_service_profiles: [], start: 0, limit: 50, total: 0 });
    assert.deepEqual((await api('GET', '/api/v2/event-streams')).json(), { eventStreams: [] });
    // Creating one is refused.
    assert.equal((await api('POST', '/api/v2/forms', { body: { name: 'f' } })).statusCode, 404);
  });

  it('routes a literal path of the service beside a parameter Gatehouse routes to its own answer, never to the parameter\'s "does not exist"', async () => {
    // Every path of the document made of literal segments only, where a sibling segment is a parameter:
    // whatever it answers (its own route, or not available), never a parameter's "does not exist".
    // Implemented literal paths whose own answer can be a 404, told apart from the parameter's by their message:
    const OWN_NOT_FOUND: Record<string, RegExp> = { '/branding/themes/default': /^No theme has been created for this tenant/ };
    const operations = serviceOperations();
    const literalBesideParameter = operations.filter(({ method, template }) => {
      if (method !== 'GET' || template.includes('{')) return false;
      const segments = template.split('/');
      return segments.some((_, i) =>
        i > 1 && operations.some((o) => o.template.split('/').length > i && o.template.split('/').slice(0, i).join('/') === segments.slice(0, i).join('/') && /^\{.+\}$/.test(o.template.split('/')[i]!)),
      );
    });
    assert.ok(literalBesideParameter.length >= 15, `${literalBesideParameter.length} such paths`);
    for (const { template } of literalBesideParameter) {
      const answer = await api('GET', `/api/v2${template}`);
      const body = answer.json() as { errorCode?: string; message?: string };
      assert.ok(answer.statusCode < 500, template);
      const own = OWN_NOT_FOUND[template];
      if (answer.statusCode === 404 && own) assert.match(body.message ?? '', own, `${template}: its own route's answer`);
      else if (answer.statusCode === 404) assert.equal(body.errorCode, 'not_available_in_gatehouse', `${template}: ${answer.body}`);
    }
  });

  it('never shadows an implemented operation', async () => {
    assert.equal((await api('GET', '/api/v2/roles')).statusCode, 200);
    assert.equal((await api('GET', '/api/v2/roles/rol_nope')).statusCode, 404);
    assert.equal(((await api('GET', '/api/v2/roles/rol_nope')).json() as { message: string }).message, 'The role does not exist.');
    // Account linking is implemented: its own answer, not the catch-all's.
    const link = await api('POST', '/api/v2/users/auth0%7Cabc/identities', { body: { provider: 'auth0', user_id: 'def' } });
    assert.deepEqual(link.json(), { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' });
    assert.equal((await api('DELETE', '/api/v2/users/auth0%7Cabc/identities/auth0/def')).statusCode, 404);
    assert.equal(((await api('DELETE', '/api/v2/users/auth0%7Cabc/identities/auth0/def')).json() as { errorCode: string }).errorCode, 'inexistent_user');
  });
});
