/**
 * The endpoint decides how an error looks (src/platform/http/error-rendering.ts):
 * the same OAuthError, thrown by code several endpoints share, is OAuth JSON
 * at the token endpoint and the other JSON endpoints, an error page or a
 * redirect to the client at /authorize, and the Management API's shape
 * under /api/v2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { DbConnectionsService } from '../../src/authentication/dbconnections/service.js';
import { Sessions } from '../../src/authentication/interaction/sessions.js';
import type { Interaction, StepDeps } from '../../src/authentication/interaction/step.js';
import { organizationStep } from '../../src/authentication/interaction/steps/organization.js';
import { Transactions } from '../../src/authentication/interaction/transactions.js';
import { errorHandler } from '../../src/platform/http/error-handler.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

const CALLBACK = 'https://app.example.com/callback';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('error rendering: the endpoint decides', () => {
  let t: TestApp;
  let web: { client_id: string; client_secret: string };
  let tv: string;

  const get = (url: string, host = DOMAIN) => t.app.inject({ method: 'GET', url, headers: { host } });
  const form = (url: string, body: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(body).toString() });

  before(async () => {
    t = await createTestApp();
    const created = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Web', app_type: 'regular_web', grant_types: ['authorization_code'], callbacks: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' },
    });
    web = created.json() as { client_id: string; client_secret: string };
    tv = ((await t.management('POST', '/api/v2/clients', { body: { name: 'TV', app_type: 'native', token_endpoint_auth_method: 'none', grant_types: [DEVICE_GRANT] } })).json() as { client_id: string }).client_id;
  });
  after(() => t.close());

  it('the unknown-host refusal (one error of the app): the Management API\'s shape under /api/v2, OAuth JSON at /oauth/token', async () => {
    const message = 'No tenant is configured for the host "nowhere.test". Create one with: gatehouse tenants create nowhere.test';
    const management = await get('/api/v2/clients', 'nowhere.test');
    assert.equal(management.statusCode, 404);
    assert.deepEqual(management.json(), { statusCode: 404, error: 'Not Found', message });
    const token = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { host: 'nowhere.test', 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(token.statusCode, 404);
    assert.deepEqual(token.json(), { error: 'not_found', error_description: message });
  });

  it('the audience check (one stage of the family): a redirect to the client at /authorize, JSON at /oauth/device/code', async () => {
    const authorize = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 's1', audience: 'https://nope.example.com' })}`);
    assert.equal(authorize.statusCode, 302, authorize.body);
    const location = new URL(authorize.headers.location as string);
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('error_description'), 'Service not enabled within domain: https://nope.example.com');
    assert.equal(location.searchParams.get('state'), 's1');

    const device = await form('/oauth/device/code', { client_id: tv, audience: 'https://nope.example.com' });
    assert.equal(device.statusCode, 403);
    assert.deepEqual(device.json(), { error: 'access_denied', error_description: 'Service not enabled within domain: https://nope.example.com' });
  });

  it('the authorization request\'s checks (shared by /authorize and /oauth/par): a page, then a redirect, at /authorize; JSON at /oauth/par', async () => {
    const request = { client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 's2' };
    // Before the redirect target is trusted: a page at /authorize, never a redirect.
    const mismatch = { ...request, redirect_uri: 'https://evil.example.com/cb' };
    const page = await get(`/authorize?${new URLSearchParams(mismatch)}`);
    assert.equal(page.statusCode, 400);
    assert.equal(page.headers.location, undefined);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /Callback URL mismatch/);
    const pushedMismatch = await form('/oauth/par', { ...mismatch, client_secret: web.client_secret });
    assert.equal(pushedMismatch.statusCode, 400);
    assert.equal((pushedMismatch.json() as { error: string }).error, 'invalid_request');

    // Once it is: the authorization error to the client at /authorize.
    const plain = { ...request, code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' };
    const redirect = await get(`/authorize?${new URLSearchParams(plain)}`);
    assert.equal(redirect.statusCode, 302);
    const location = new URL(redirect.headers.location as string);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('error_description'), 'Unsupported code_challenge_method: only S256 is supported');
    const pushed = await form('/oauth/par', { ...plain, client_secret: web.client_secret });
    assert.equal(pushed.statusCode, 400);
    assert.deepEqual(pushed.json(), { error: 'invalid_request', error_description: 'Unsupported code_challenge_method: only S256 is supported' });
  });

  it('a signed request object\'s refusal: the page at /authorize, invalid_request_object at /oauth/par', async () => {
    const page = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, request: 'not-a-jwt' })}`);
    assert.equal(page.statusCode, 400);
    assert.equal(page.headers.location, undefined);
    assert.match(page.body, /Invalid request object: The request object is not a signed JWT/);
    const pushed = await form('/oauth/par', { client_id: web.client_id, client_secret: web.client_secret, request: 'not-a-jwt' });
    assert.equal(pushed.statusCode, 400);
    assert.deepEqual(pushed.json(), { error: 'invalid_request_object', error_description: 'The request object is not a signed JWT' });
  });

  it('an interaction step\'s refusal (the organization step\'s check): a redirect to the client at /authorize, OAuth JSON where the endpoint chose nothing', async () => {
    const denying = (await t.management('POST', '/api/v2/clients', {
      body: { name: 'No organizations', app_type: 'regular_web', grant_types: ['authorization_code'], callbacks: [CALLBACK], organization_usage: 'deny' },
    })).json() as { client_id: string };
    const description = 'parameter organization is not allowed for this client';

    // /authorize: the interaction policy answers the step's refusal to the trusted redirect target.
    const authorize = await get(`/authorize?${new URLSearchParams({ client_id: denying.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 's5', organization: 'org_anything' })}`);
    assert.equal(authorize.statusCode, 302, authorize.body);
    const location = new URL(authorize.headers.location as string);
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('error_description'), description);
    assert.equal(location.searchParams.get('state'), 's5');

    // The same check run by an endpoint that chose no renderer (as the token endpoint): the surface's OAuth JSON,
    // so the error carries no response shape of its own.
    const deps: StepDeps = {
      ctx: t.ctx,
      sessions: new Sessions(t.ctx),
      transactions: new Transactions(t.ctx),
      dbconnections: new DbConnectionsService(t.ctx),
      steps: [organizationStep],
      protocols: [],
      connectionLogins: [],
    };
    const client = await t.ctx.lookups.client(t.tenant.id, denying.client_id);
    assert.ok(client);
    const interaction: Interaction = {
      tenant: t.tenant,
      client,
      request: { client_id: denying.client_id, response_type: ['code'], redirect_target: CALLBACK, redirect_uri: CALLBACK, response_mode: 'query', state: 's6', organization: 'org_anything' },
      browser: 'browser',
      completed: [],
    };
    const bare = Fastify();
    bare.setErrorHandler(errorHandler);
    bare.post('/check', async () => ({ needed: await organizationStep.needed(deps, interaction) }));
    try {
      const checked = await bare.inject({ method: 'POST', url: '/check' });
      assert.equal(checked.statusCode, 400);
      assert.equal(checked.headers.location, undefined);
      assert.deepEqual(checked.json(), { error: 'invalid_request', error_description: description });
    } finally {
      await bare.close();
    }
  });
});
