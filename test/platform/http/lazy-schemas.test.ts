/**
 * Request and response schemas are compiled on first use
 * (src/platform/http/validation.ts), so a schema that does not compile would
 * only show on its first request: this test compiles every route's schemas
 * of a whole app at once, and checks that a deferred validator still reports
 * its errors in the service's words.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileEveryRouteSchema } from '../../../src/platform/http/validation.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

describe('schemas compiled on first use', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('every route schema of the app compiles (validators and serialisers)', () => {
    const count = compileEveryRouteSchema();
    // Hundreds of Management and Authentication API schemas; a handful would mean they were not collected.
    assert.ok(count > 200, `${count} deferred compilations`);
  });

  it('a deferred validator refuses with the service\'s message, and a deferred serialiser drops undeclared fields', async () => {
    const token = await t.managementToken();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v2/roles',
      headers: { host: t.tenant.domain, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { name: 'r', unexpected: true },
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /^Payload validation error: 'Additional properties not allowed: unexpected'/);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/roles',
      headers: { host: t.tenant.domain, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { name: 'reader', description: 'reads' },
    });
    assert.equal(created.statusCode, 200, created.body);
    assert.deepEqual(Object.keys(created.json()).sort(), ['description', 'id', 'name']);
  });
});
