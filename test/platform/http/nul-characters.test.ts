/**
 * A NUL character in any string of a request is a 400 in the surface's shape,
 * on PostgreSQL too (which cannot store one in text: it answered 500), and
 * nothing is stored. Found by sending `%00` and `\u0000` to every kind of input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../../helpers/app.js';
import { postgresAvailable } from '../../helpers/postgres.js';

const hasPostgres = await postgresAvailable();

for (const postgres of [false, true]) {
  describe(`NUL characters (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && !hasPostgres ? 'PostgreSQL is not reachable (GATEHOUSE_TEST_POSTGRES_URL)' : false }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ postgres });
    });
    after(() => t?.close());

    it('path parameters and query strings of the Management API: 400 invalid_uri / invalid_query_string', async () => {
      const cases: [string, string, string][] = [
        ['/api/v2/clients/%00', 'Path', 'id'],
        ['/api/v2/resource-servers/a%00b', 'Path', 'id'],
        ['/api/v2/connections/%00', 'Path', 'id'],
        ['/api/v2/client-grants/%00', 'Path', 'id'],
        ['/api/v2/organizations/%00', 'Path', 'id'],
        ['/api/v2/users/auth0%7C%00', 'Path', 'id'],
        ['/api/v2/grants?user_id=%00', 'Query', 'user_id'],
        ['/api/v2/connections?name=%00', 'Query', 'name'],
        ['/api/v2/user-blocks?identifier=a%00', 'Query', 'identifier'],
      ];
      for (const [url, prefix, name] of cases) {
        const res = await t.management('GET', url);
        assert.equal(res.statusCode, 400, url);
        assert.deepEqual(res.json(), {
          statusCode: 400,
          error: 'Bad Request',
          message: `${prefix} validation error: 'String contains a NUL character' on property ${name}.`,
          errorCode: prefix === 'Path' ? 'invalid_uri' : 'invalid_query_string',
        });
      }
    });

    it('JSON and form bodies of the Management API: 400 invalid_body, nothing created', async () => {
      const before = ((await t.management('GET', '/api/v2/roles?include_totals=true')).json() as { total: number }).total;
      for (const body of [{ name: 'a\u0000b' }, { name: 'ok', description: 'x\u0000' }]) {
        const res = await t.management('POST', '/api/v2/roles', { body });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: "Payload validation error: 'String contains a NUL character'.", errorCode: 'invalid_body' });
      }
      const form = await t.management('POST', '/api/v2/roles', { body: 'name=a%00b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.statusCode, 400);
      assert.equal((form.json() as { message: string }).message, "Payload validation error: 'String contains a NUL character' on property name.");
      const clients = await t.management('POST', '/api/v2/clients', { body: { name: 'app', client_metadata: { 'k\u0000': 'v' } } });
      assert.equal(clients.statusCode, 400);
      const after = ((await t.management('GET', '/api/v2/roles?include_totals=true')).json() as { total: number }).total;
      assert.equal(after, before);
      // An escaped backslash followed by "u0000" is text, not a NUL.
      const literal = await t.management('POST', '/api/v2/roles', { body: '{"name":"back\\\\u0000slash"}' });
      assert.equal(literal.statusCode, 200, literal.body);
      assert.equal((literal.json() as { name: string }).name, 'back\\u0000slash');
    });

    it('a Content-Type in other letter case is the same media type (RFC 9110 §8.3.1): 400, nothing stored', async () => {
      const users = async () => ((await t.management('GET', '/api/v2/users?include_totals=true&per_page=1')).json() as { total: number }).total;
      const roles = async () => ((await t.management('GET', '/api/v2/roles?include_totals=true&per_page=1')).json() as { total: number }).total;
      const [usersBefore, rolesBefore] = [await users(), await roles()];
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      const authentication: [string, string, string, string][] = [
        ['/oauth/token', 'Application/X-WWW-Form-Urlencoded', form({ grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'x' }), 'client_id'],
        ['/oauth/token', 'APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8', form({ grant_type: 'password', username: 'u\u0000', password: 'p', client_id: 'c' }), 'username'],
        ['/dbconnections/signup', 'application/X-www-form-urlencoded', form({ client_id: 'c', connection: 'Username-Password-Authentication', email: 'nul\u0000@example.com', password: 'Secret-pass-123' }), 'email'],
        ['/passwordless/start', 'Application/x-www-form-urlencoded', form({ client_id: 'c', connection: 'email', email: 'nul\u0000@example.com', send: 'code' }), 'email'],
      ];
      for (const [url, contentType, payload, name] of authentication) {
        const res = await t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': contentType }, payload });
        assert.equal(res.statusCode, 400, `${url} ${contentType}: ${res.body}`);
        assert.deepEqual(res.json(), { error: 'invalid_request', error_description: `Parameter ${name} must not contain a NUL character` }, url);
      }
      // JSON under another letter case is scanned as text like any JSON body.
      for (const url of ['/oauth/token', '/dbconnections/signup', '/passwordless/start']) {
        const res = await t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'Application/JSON' }, payload: JSON.stringify({ client_id: 'c', email: 'nul\u0000@example.com', grant_type: 'x' }) });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.deepEqual(res.json(), { error: 'invalid_request', error_description: 'The request contains a NUL character' }, url);
      }
      for (const contentType of ['Application/X-WWW-Form-Urlencoded', 'Application/Json']) {
        const payload = contentType.endsWith('Json') ? JSON.stringify({ name: 'a\u0000b' }) : 'name=a%00b';
        const res = await t.management('POST', '/api/v2/roles', { body: payload, headers: { 'content-type': contentType } });
        assert.equal(res.statusCode, 400, `${contentType}: ${res.body}`);
        assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
      }
      assert.equal(await users(), usersBefore);
      assert.equal(await roles(), rolesBefore);
    });

    it('the Authentication API: 400 invalid_request naming the parameter', async () => {
      const json = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'x' });
      assert.equal(json.statusCode, 400);
      assert.deepEqual(json.json(), { error: 'invalid_request', error_description: 'The request contains a NUL character' });
      const form = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'x' }, { form: true });
      assert.deepEqual(form.json(), { error: 'invalid_request', error_description: 'Parameter client_id must not contain a NUL character' });
      const authorize = await t.app.inject({ method: 'GET', url: '/authorize?client_id=%00', headers: { host: DOMAIN } });
      assert.equal(authorize.statusCode, 400);
      assert.deepEqual(authorize.json(), { error: 'invalid_request', error_description: 'Parameter client_id must not contain a NUL character' });
    });
  });
}
