/** GET /api/v2/openapi.json: the implemented Management API, generated from the route schemas. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { managementRoutes } from '../../src/management/routes.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

describe('Management API OpenAPI document', () => {
  let t: TestApp;
  let doc: { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, { security?: Record<string, string[]>[]; requestBody?: unknown }>> };

  before(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json', headers: { host: DOMAIN } });
    assert.equal(res.statusCode, 200, res.body);
    doc = res.json() as typeof doc;
  });
  after(() => t.close());

  it('is OpenAPI 3.1 with the tenant as server, and needs no token', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers, [{ url: `https://${DOMAIN}` }]);
  });

  it('lists every Management API operation with the scopes it accepts, and nothing else', () => {
    const routes = managementRoutes(t.ctx);
    for (const route of routes) {
      const path = `/api/v2${(route.url as string).replace(/:(\w+)/g, '{$1}')}`;
      const method = String(route.method).toLowerCase();
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      assert.deepEqual(operation.security, [{ bearerAuth: [] }, { oAuth2ClientCredentials: [...route.config.scopes] }]);
    }
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assert.equal(documented, routes.length);
    assert.ok(!('/oauth/token' in doc.paths));
    assert.ok(!('/api/v2/openapi.json' in doc.paths));
  });

  it('carries the request schemas that validate requests', () => {
    const body = JSON.stringify(doc.paths['/api/v2/clients']?.post?.requestBody);
    assert.match(body, /"maxLength":140/, 'the description limit of the client schema');
  });
});
