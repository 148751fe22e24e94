/**
 * JWKS and discovery as precomputed bytes (src/authentication/well-known/):
 * the same body, ETag and caching headers whether the real listener answers
 * them ahead of Fastify or the Fastify route does (app.inject), 304 to a
 * matching If-None-Match, HEAD without a body, the public CORS header, and
 * everything the fast path must not take (unknown hosts, other methods,
 * query strings) left to Fastify's answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

const PATHS = ['/.well-known/jwks.json', '/.well-known/openid-configuration'] as const;

describe('well-known documents', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  /** A request over the socket with the tenant's Host (fetch may not set Host; node:http may). */
  async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
    const { request } = await import('node:http');
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers: { host: DOMAIN, ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  for (const path of PATHS) {
    it(`${path}: the listener and the route send the same bytes, ETag and caching headers`, async () => {
      const wire = await get(path);
      const injected = await t.app.inject({ method: 'GET', url: path, headers: { host: DOMAIN } });
      assert.equal(wire.status, 200);
      assert.equal(injected.statusCode, 200);
      assert.equal(wire.body, injected.body);
      assert.match(String(wire.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
      assert.equal(wire.headers.etag, injected.headers.etag);
      assert.equal(wire.headers['cache-control'], 'public, max-age=300');
      assert.equal(injected.headers['cache-control'], 'public, max-age=300');
      assert.equal(wire.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(Number(wire.headers['content-length']), Buffer.byteLength(wire.body));
      const parsed = JSON.parse(wire.body) as Record<string, unknown>;
      if (path.endsWith('jwks.json')) assert.ok(Array.isArray(parsed.keys) && parsed.keys.length > 0);
      else assert.equal(parsed.issuer, `https://${DOMAIN}/`);
    });

    it(`${path}: 304 with no body to a matching If-None-Match (also in a list, also weak), 200 to another`, async () => {
      const { headers } = await get(path);
      const etag = String(headers.etag);
      for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const wire = await get(path, { 'if-none-match': ifNoneMatch });
        assert.equal(wire.status, 304, ifNoneMatch);
        assert.equal(wire.body, '');
        assert.equal(wire.headers.etag, etag);
        const injected = await t.app.inject({ method: 'GET', url: path, headers: { host: DOMAIN, 'if-none-match': ifNoneMatch } });
        assert.equal(injected.statusCode, 304, ifNoneMatch);
        assert.equal(injected.body, '');
      }
      const stale = await get(path, { 'if-none-match': '"not-the-etag"' });
      assert.equal(stale.status, 200);
      assert.ok(stale.body.length > 0);
    });

    it(`${path}: HEAD answers the headers without the body; another origin gets Access-Control-Allow-Origin: *`, async () => {
      const head = await get(path, {}, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.ok(Number(head.headers['content-length']) > 0);
      const cross = await get(path, { origin: 'https://app.example.com' });
      assert.equal(cross.headers['access-control-allow-origin'], '*');
      const same = await get(path, { origin: `https://${DOMAIN}` });
      assert.equal(same.headers['access-control-allow-origin'], undefined);
    });
  }

  it('an unknown host, a query string and another method are Fastify\'s to answer, as before', async () => {
    const unknown = await get('/.well-known/jwks.json', { host: 'nobody.example.com' });
    assert.equal(unknown.status, 404);
    assert.match(JSON.parse(unknown.body).error_description, /^No tenant is configured for the host "nobody\.example\.com"/);
    const query = await get('/.well-known/jwks.json?x=1');
    assert.equal(query.status, 200);
    assert.ok(query.headers['x-ratelimit-limit'] !== undefined, 'went through the Fastify route');
    const post = await get('/.well-known/openid-configuration', {}, 'POST');
    assert.equal(post.status, 404);
  });

  it('a reloaded key set (new object, same keys) keeps the bytes and the ETag', async () => {
    const before = await get('/.well-known/jwks.json');
    t.ctx.keyring.invalidate(t.tenant.id);
    const again = await get('/.well-known/jwks.json');
    // Same keys reloaded: same bytes, same validator (the ETag is of the bytes, not of the load).
    assert.equal(again.headers.etag, before.headers.etag);
    assert.equal(again.body, before.body);
  });
});
