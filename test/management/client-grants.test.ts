/** /api/v2/client-grants through the real app and database, both paging styles. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECKPOINT_TTL_MS } from '../../src/management/paging.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

interface Grant {
  id: string;
  client_id: string;
  audience: string;
  scope: string[];
}

describe('/api/v2/client-grants', () => {
  let t: TestApp;
  const API = 'https://grants.example.com/';

  before(async () => {
    t = await createTestApp();
    const rs = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: API, scopes: [{ value: 'a' }, { value: 'b' }] },
    });
    assert.equal(rs.statusCode, 201);
  });
  after(() => t.close());

  it('creates (201), gets, updates (200) and deletes (204) a grant', async () => {
    const client = await insertClient(t);
    const created = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: ['a'] } });
    assert.equal(created.statusCode, 201, created.body);
    const grant = created.json() as Record<string, unknown>;
    assert.match(grant.id as string, /^cgr_[A-Za-z0-9]{16}$/);
    assert.deepEqual(grant, {
      id: grant.id,
      client_id: client.client_id,
      audience: API,
      scope: ['a'],
      organization_usage: 'deny',
      allow_any_organization: false,
      is_system: false,
      subject_type: 'client',
    });
    const got = await t.management('GET', `/api/v2/client-grants/${grant.id as string}`);
    assert.deepEqual(got.json(), grant);
    const updated = await t.management('PATCH', `/api/v2/client-grants/${grant.id as string}`, { body: { scope: ['a', 'b'] } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual((updated.json() as Grant).scope, ['a', 'b']);
    const deleted = await t.management('DELETE', `/api/v2/client-grants/${grant.id as string}`);
    assert.equal(deleted.statusCode, 204);
    const gone = await t.management('GET', `/api/v2/client-grants/${grant.id as string}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), { statusCode: 404, error: 'Not Found', message: 'The grant does not exist.', errorCode: 'inexistent_client_grant' });
  });

  it('refuses grants that cannot exist', async () => {
    const client = await insertClient(t);
    const cases: [unknown, number, string][] = [
      [{ client_id: 'missing', audience: API, scope: [] }, 404, 'Client not found'],
      [{ client_id: client.client_id, audience: 'https://none.example.com/', scope: [] }, 404, 'Resource server not found'],
      [{ client_id: client.client_id, audience: API, scope: ['zzz'] }, 400, 'Scopes not defined by the resource server: zzz'],
      [{ audience: API, scope: [] }, 400, "Payload validation error: 'Missing required property: client_id'."],
      [{ client_id: client.client_id, audience: API, scope: [''] }, 400, "Payload validation error: 'String is too short (0 chars), minimum 1' on property scope[0]."],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.management('POST', '/api/v2/client-grants', { body });
      assert.equal(res.statusCode, status, res.body);
      assert.equal((res.json() as { message: string }).message, message);
    }
    const first = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: [] } });
    assert.equal(first.statusCode, 201);
    const dup = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: ['a'] } });
    assert.equal(dup.statusCode, 409);
    assert.equal((dup.json() as { message: string }).message, 'A client grant for this client and audience already exists.');
  });

  it('filters by audience and client_id', async () => {
    const client = await insertClient(t);
    await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: ['b'] } });
    const byClient = await t.management('GET', `/api/v2/client-grants?client_id=${client.client_id}`);
    const list = byClient.json() as Grant[];
    assert.equal(list.length, 1);
    assert.equal(list[0]!.client_id, client.client_id);
    const byAudience = await t.management('GET', `/api/v2/client-grants?audience=${encodeURIComponent(API)}&include_totals=true`);
    const body = byAudience.json() as { total: number; client_grants: Grant[] };
    assert.ok(body.total >= 1);
    assert.ok(body.client_grants.every((g) => g.audience === API));
  });

  it('checkpoint paging visits every surviving grant exactly once while grants come and go', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const client = await insertClient(t);
      const res = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: [] } });
      ids.add((res.json() as Grant).id);
    }
    const all = (await t.management('GET', '/api/v2/client-grants?per_page=100')).json() as Grant[];
    const before = new Set(all.map((g) => g.id));

    const seen: string[] = [];
    const deleted = new Set<string>();
    // The SDK sends the offset parameters too; from/take must win over them.
    let url = '/api/v2/client-grants?page=0&per_page=50&include_totals=true&take=5';
    for (let pageNo = 0; pageNo < 20; pageNo++) {
      const res = await t.management('GET', url);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as { client_grants: Grant[]; next?: string };
      assert.deepEqual(Object.keys(page).filter((k) => k !== 'next'), ['client_grants']);
      seen.push(...page.client_grants.map((g) => g.id));
      if (pageNo === 0) {
        // Between pages: delete one grant not seen yet (one of this test's, never the admin client's own), and add a new one.
        const unseen = [...before].filter((id) => ids.has(id) && !seen.includes(id)).at(-1)!;
        await t.management('DELETE', `/api/v2/client-grants/${unseen}`);
        deleted.add(unseen);
        const client = await insertClient(t);
        await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: [] } });
      }
      if (page.next === undefined) {
        assert.ok(!('next' in page), 'next is absent on the last page');
        break;
      }
      assert.notEqual(page.next, '');
      url = `/api/v2/client-grants?take=5&from=${encodeURIComponent(page.next)}`;
    }
    assert.equal(new Set(seen).size, seen.length, 'no grant repeated');
    for (const id of before) if (!deleted.has(id)) assert.ok(seen.includes(id), `grant ${id} was skipped`);
    for (const id of deleted) assert.ok(!seen.includes(id));
  });

  it('refuses a forged or expired checkpoint', async () => {
    const first = (await t.management('GET', '/api/v2/client-grants?take=1')).json() as { next?: string };
    assert.ok(first.next);
    const forged = await t.management('GET', `/api/v2/client-grants?take=1&from=${encodeURIComponent(first.next.slice(0, -4) + 'AAAA')}`);
    assert.equal(forged.statusCode, 400);
    assert.equal((forged.json() as { errorCode: string }).errorCode, 'invalid_query_string');

    await withClockAdvanced(t, CHECKPOINT_TTL_MS + 60_000, async () => {
      const expired = await t.management('GET', `/api/v2/client-grants?take=1&from=${encodeURIComponent(first.next!)}`);
      assert.equal(expired.statusCode, 400);
      assert.deepEqual(expired.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: "Query validation error: 'Invalid or expired checkpoint' on property from (Optional Id from which to start selection).",
        errorCode: 'invalid_query_string',
      });
    });
  });

  it('take is 1..100', async () => {
    for (const take of ['0', '101']) {
      const res = await t.management('GET', `/api/v2/client-grants?take=${take}`);
      assert.equal(res.statusCode, 400);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_query_string');
    }
  });
});
