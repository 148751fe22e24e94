/** GET /api/v2/openapi.json: the implemented Management API, generated from the route schemas. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { managementRoutes } from '../../src/management/routes.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

describe('Management API OpenAPI document', () => {
  let t: TestApp;
  type Content = { 'application/json'?: { schema: Record<string, unknown> } };
  type Operation = {
    security?: Record<string, string[]>[];
    requestBody?: { content: Content };
    parameters?: { schema: Record<string, unknown> }[];
    responses?: Record<string, { description: string; content?: Content }>;
  };
  let doc: { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };
  const operationOf = (route: { url: unknown; method: unknown }) =>
    doc.paths[`/api/v2${(route.url as string).replace(/:(\w+)/g, '{$1}')}`]?.[String(route.method).toLowerCase()];

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

  it('carries the response schema of every success status each operation sends', () => {
    for (const route of managementRoutes(t.ctx)) {
      const operation = operationOf(route)!;
      const declared = route.schema.response;
      const statuses = Object.keys(declared);
      assert.ok(statuses.length > 0 && statuses.every((s) => s.startsWith('2')), `${String(route.method)} ${route.url}`);
      assert.deepEqual(Object.keys(operation.responses ?? {}), statuses, `${String(route.method)} ${route.url}`);
      for (const status of statuses) {
        const documented = operation.responses![status]!;
        // 204: no content; every other status: a JSON body of the declared schema.
        if (declared[Number(status)]!.type === 'null') assert.equal(documented.content, undefined);
        else assert.ok(documented.content?.['application/json']?.schema, `${String(route.method)} ${route.url} ${status}`);
      }
    }
  });

  it('documents the client as the closed response Client, in each shape of the list', () => {
    const client = doc.paths['/api/v2/clients/{id}']!.get!.responses!['200']!.content!['application/json']!.schema as {
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    assert.equal(client.additionalProperties, false);
    for (const field of ['client_id', 'client_secret', 'signing_keys', 'callbacks', 'jwks_uri']) assert.ok(field in client.properties, field);
    assert.ok(!('oidc_backchannel_logout' in client.properties));
    const list = doc.paths['/api/v2/clients']!.get!.responses!['200']!.content!['application/json']!.schema as { anyOf: unknown[] };
    assert.equal(list.anyOf.length, 3);
    assert.equal(doc.paths['/api/v2/clients']!.post!.responses!['201']!.content!['application/json']!.schema.additionalProperties, false);
  });

  it('is made of valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let compiled = 0;
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        const schemas = [
          ...(operation.parameters ?? []).map((p) => p.schema),
          operation.requestBody?.content['application/json']?.schema,
          ...Object.values(operation.responses ?? {}).map((r) => r.content?.['application/json']?.schema),
        ];
        for (const schema of schemas) {
          if (schema === undefined) continue;
          ajv.compile(schema);
          compiled++;
        }
      }
    }
    assert.ok(compiled > 200, String(compiled));
  });
});
