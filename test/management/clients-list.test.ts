/**
 * GET /api/v2/clients (the specification's operation 1) through the real app
 * and database: the filters, `fields`, both paging styles (also while clients
 * come and go), the two `q` queries and their lower rate limit, and field
 * visibility by the token's scopes (Authentication part, item 3).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECKPOINT_TTL_MS } from '../../src/management/paging.js';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

type Json = Record<string, unknown>;

/** The service's query validation message (z-schema wording inside). */
function queryError(inner: string, property: string, description: string): Json {
  return {
    statusCode: 400,
    error: 'Bad Request',
    message: `Query validation error: '${inner}' on property ${property} (${description}).`,
    errorCode: 'invalid_query_string',
  };
}

/** Descriptions of the query parameters. */
const Q = {
  per_page: 'Number of results per page. Default value is 50, maximum value is 100',
  page: 'Page index of the results to return. First page is 0.',
  take: 'Number of results per page. Defaults to 50.',
  from: 'Optional Id from which to start selection',
  fields:
    'Comma-separated list of fields to include or exclude (based on value provided for include_fields) in the result. Leave empty to retrieve all fields.',
  app_type: 'Optional filter by a comma-separated list of application types.',
  external_client_id: 'Optional filter by the Client ID Metadata Document URI of registered clients.',
  is_global: 'Optional filter on the global client parameter.',
  q: 'Advanced Query in Lucene syntax. Permitted Queries: client_grant.organization_id:{organization_id}, client_grant.allow_any_organization:true.',
} as const;

const SUMMARY_FIELDS = ['app_type', 'client_id', 'description', 'name'];
const CREDENTIAL_FIELDS = ['client_authentication_methods', 'client_secret', 'encryption_key', 'signing_keys'];

const ids = (clients: Json[]) => clients.map((c) => c.client_id as string);
const sorted = (values: string[]) => [...values].sort();

/** Inserts `n` clients through the store (faster than the API, same rows). */
async function seedClients(t: TestApp, n: number, prefix: string): Promise<string[]> {
  const created: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${prefix} ${i}`;
    const client = await insertClient(t, { name, config: { name, description: '', app_type: 'non_interactive' } });
    created.push(client.client_id);
  }
  return created;
}

describe('GET /api/v2/clients', () => {
  describe('filters, fields and field visibility', () => {
    let t: TestApp;
    let token: string;
    let all: Json[];
    const CIMD = 'https://cimd.example.com/apps/one.json';
    const seeded: Record<string, Json> = {};

    before(async () => {
      t = await createTestApp();
      token = await t.managementToken();
      const bodies: Record<string, Json> = {
        spa: { name: 'Spa one', app_type: 'spa', callbacks: ['https://spa.example.com/callback'] },
        spa2: { name: 'Spa two', app_type: 'spa', description: 'second' },
        native: { name: 'Native', app_type: 'native', is_first_party: true },
        web: { name: 'Web', app_type: 'regular_web', client_metadata: { team: 'web' } },
        m2m: {
          name: 'Machine',
          app_type: 'non_interactive',
          token_endpoint_auth_method: 'client_secret_post',
          callbacks: ['https://m2m.example.com/callback'],
          client_authentication_methods: { private_key_jwt: { credentials: [] } },
          encryption_key: { pub: 'pub', cert: 'cert', subject: '/CN=tenant.test' },
        },
      };
      for (const [key, body] of Object.entries(bodies)) {
        const res = await t.management('POST', '/api/v2/clients', { token, body });
        assert.equal(res.statusCode, 201, res.body);
        seeded[key] = res.json() as Json;
      }
      // A client registered through a client-ID metadata document (not creatable through the API).
      const config = { name: 'Metadata document', description: '', app_type: 'regular_web', is_first_party: false, external_client_id: CIMD, external_metadata_type: 'cimd' };
      const cimd = await insertClient(t, { name: config.name, app_type: 'regular_web', is_first_party: 0, external_client_id: CIMD, config: config });
      seeded.cimd = { client_id: cimd.client_id };
      all = (await t.management('GET', '/api/v2/clients?per_page=100', { token })).json() as Json[];
      assert.equal(all.length, 8, 'the seeded clients, the admin client and the global client');
    });
    after(() => t.close());

    const list = async (query: string, options: { token?: string } = {}) => {
      const res = await t.management('GET', `/api/v2/clients${query}`, { token: options.token ?? token });
      return res;
    };
    const listOk = async (query: string, options: { token?: string } = {}) => {
      const res = await list(query, options);
      assert.equal(res.statusCode, 200, `${query} → ${res.body}`);
      return res.json() as Json[];
    };

    it('lists every client, the global "All Applications" included, as a plain array', async () => {
      const names = all.map((c) => c.name);
      for (const name of ['All Applications', 'Gatehouse Admin', 'Spa one', 'Spa two', 'Native', 'Web', 'Machine', 'Metadata document']) {
        assert.ok(names.includes(name), name);
      }
      assert.ok(Array.isArray(await listOk('')));
      assert.ok(Array.isArray(await listOk('?include_totals=false')));
    });

    it('is_global filters on the global client', async () => {
      const globals = await listOk('?is_global=true');
      assert.deepEqual(globals.map((c) => [c.name, c.global]), [['All Applications', true]]);
      const others = await listOk('?is_global=false&per_page=100');
      assert.deepEqual(sorted(ids(others)), sorted(ids(all.filter((c) => c.global === false))));
      assert.deepEqual(await list('?is_global=maybe').then((r) => [r.statusCode, r.json()]), [
        400,
        queryError('Expected type boolean but found type string', 'is_global', Q.is_global),
      ]);
    });

    it('is_first_party filters on first-party clients', async () => {
      const first = await listOk('?is_first_party=true&per_page=100');
      assert.deepEqual(sorted(ids(first)), sorted(ids(all.filter((c) => c.is_first_party === true))));
      assert.ok(ids(first).includes(seeded.native!.client_id as string));
      const third = await listOk('?is_first_party=false&per_page=100');
      assert.deepEqual(sorted(ids(third)), sorted(ids(all.filter((c) => c.is_first_party === false))));
      const totals = (await list('?is_first_party=true&include_totals=true')).json() as Json;
      assert.equal(totals.total, first.length);
    });

    it('app_type filters on a comma-separated list; an unknown app type is a 400', async () => {
      const spas = await listOk('?app_type=spa');
      assert.deepEqual(sorted(ids(spas)), sorted([seeded.spa!.client_id as string, seeded.spa2!.client_id as string]));
      const several = await listOk('?app_type=spa,native,regular_web');
      assert.deepEqual(sorted(ids(several)), sorted(ids(all.filter((c) => ['spa', 'native', 'regular_web'].includes(c.app_type as string)))));
      assert.equal(several.length, 5);
      const totals = (await list('?app_type=spa,native&include_totals=true')).json() as Json;
      assert.equal(totals.total, 3);
      assert.deepEqual(await listOk('?app_type=sso_integration'), []);

      for (const [query, bad] of [
        ['?app_type=desktop', 'desktop'],
        ['?app_type=spa,desktop', 'desktop'],
      ] as const) {
        const res = await list(query);
        assert.equal(res.statusCode, 400, query);
        assert.deepEqual(res.json(), queryError(`No enum match for: ${bad}`, 'app_type', Q.app_type), query);
      }
    });

    it('external_client_id filters on the metadata-document URI; length 1 to 120', async () => {
      const found = await listOk(`?external_client_id=${encodeURIComponent(CIMD)}`);
      assert.deepEqual(ids(found), [seeded.cimd!.client_id]);
      assert.equal(found[0]!.external_client_id, CIMD);
      const totals = (await list(`?external_client_id=${encodeURIComponent(CIMD)}&include_totals=true`)).json() as Json;
      assert.equal(totals.total, 1);

      const max = `https://cimd.example.com/${'a'.repeat(120 - 'https://cimd.example.com/'.length)}`;
      assert.equal(max.length, 120);
      assert.deepEqual(await listOk(`?external_client_id=${encodeURIComponent(max)}`), []);
      const tooLong = await list(`?external_client_id=${encodeURIComponent(`${max}b`)}`);
      assert.equal(tooLong.statusCode, 400);
      assert.deepEqual(tooLong.json(), queryError('String is too long (121 chars), maximum 120', 'external_client_id', Q.external_client_id));
      const empty = await list('?external_client_id=');
      assert.equal(empty.statusCode, 400);
      assert.deepEqual(empty.json(), queryError('String is too short (0 chars), minimum 1', 'external_client_id', Q.external_client_id));
    });

    it('fields with include_fields true returns only those fields, false all but those; empty means all', async () => {
      const only = await listOk('?fields=client_id,name&include_fields=true&per_page=100');
      assert.equal(only.length, all.length);
      for (const c of only) assert.deepEqual(Object.keys(c).sort(), ['client_id', 'name']);
      // include_fields defaults to true.
      for (const c of await listOk('?fields=client_id')) assert.deepEqual(Object.keys(c), ['client_id']);

      const excluded = ['client_secret', 'signing_keys', 'jwt_configuration', 'callbacks', 'tenant'];
      const rest = await listOk(`?fields=${excluded.join(',')}&include_fields=false&per_page=100`);
      for (const c of rest) {
        const full = all.find((a) => a.client_id === c.client_id)!;
        const expected = Object.fromEntries(Object.entries(full).filter(([k]) => !excluded.includes(k)));
        assert.deepEqual(c, expected);
      }
      assert.deepEqual(await listOk('?fields=&per_page=100'), all);
    });

    it('fields naming an unknown field is a 400', async () => {
      for (const query of ['?fields=nope', '?fields=client_id,nope&include_fields=false']) {
        const res = await list(query);
        assert.equal(res.statusCode, 400, query);
        const body = res.json() as Json;
        assert.equal(body.errorCode, 'invalid_query_string');
        assert.equal(body.error, 'Bad Request');
        const message = body.message as string;
        const prefix = "Query validation error: 'String 'nope' does not match pattern. Must be a comma separated list of the following values: ";
        const suffix = `' on property fields (${Q.fields}).`;
        assert.ok(message.startsWith(prefix) && message.endsWith(suffix), message);
        const allowed = message.slice(prefix.length, -suffix.length).split(',');
        for (const field of ['client_id', 'name', 'client_secret', 'callbacks', 'refresh_token', 'organization_usage']) {
          assert.ok(allowed.includes(field), field);
        }
        assert.ok(!allowed.includes('nope'));
      }
    });

    it('read:client_summary alone sees exactly client_id, app_type, name and description', async () => {
      const summary = await t.managementToken('read:client_summary');
      const clients = await listOk('?per_page=100', { token: summary });
      assert.equal(clients.length, all.length);
      for (const c of clients) assert.ok(Object.keys(c).every((k) => SUMMARY_FIELDS.includes(k)), JSON.stringify(c));
      const spa2 = clients.find((c) => c.client_id === seeded.spa2!.client_id)!;
      assert.deepEqual(spa2, { client_id: seeded.spa2!.client_id, app_type: 'spa', name: 'Spa two', description: 'second' });
      const one = await t.management('GET', `/api/v2/clients/${seeded.spa2!.client_id as string}`, { token: summary });
      assert.deepEqual(one.json(), spa2);
    });

    it('read:client_credentials alone adds the credentials (client_secret, …) but not the configuration', async () => {
      const credentials = await t.managementToken('read:client_credentials');
      const clients = await listOk('?per_page=100', { token: credentials });
      const m2m = clients.find((c) => c.client_id === seeded.m2m!.client_id)!;
      assert.deepEqual(Object.keys(m2m).sort(), [...SUMMARY_FIELDS, ...CREDENTIAL_FIELDS].sort());
      assert.equal(m2m.client_secret, seeded.m2m!.client_secret);
      assert.deepEqual(m2m.client_authentication_methods, { private_key_jwt: { credentials: [] } });
      for (const c of clients) {
        assert.ok(!('callbacks' in c) && !('tenant' in c) && !('jwt_configuration' in c), JSON.stringify(Object.keys(c)));
        assert.ok(Object.keys(c).every((k) => [...SUMMARY_FIELDS, ...CREDENTIAL_FIELDS].includes(k)), JSON.stringify(Object.keys(c)));
      }
    });

    it('read:clients sees the configuration but not the credentials', async () => {
      const config = await t.managementToken('read:clients');
      const clients = await listOk('?per_page=100', { token: config });
      assert.equal(clients.length, all.length);
      for (const c of clients) {
        const full = all.find((a) => a.client_id === c.client_id)!;
        assert.deepEqual(c, Object.fromEntries(Object.entries(full).filter(([k]) => !CREDENTIAL_FIELDS.includes(k))));
      }
      const m2m = clients.find((c) => c.client_id === seeded.m2m!.client_id)!;
      assert.deepEqual(m2m.callbacks, ['https://m2m.example.com/callback']);
      assert.equal(m2m.tenant, t.tenant.name);
      assert.equal(m2m.global, false);
      assert.ok(!('client_secret' in m2m));
    });

    it('read:client_keys sees everything', async () => {
      const keys = await t.managementToken('read:client_keys');
      assert.deepEqual(await listOk('?per_page=100', { token: keys }), all);
    });

    it('asking through fields for a field the token cannot read is a 403 naming it', async () => {
      const summary = await t.managementToken('read:client_summary');
      const config = await t.managementToken('read:clients');
      const forbidden = (message: string) => ({ statusCode: 403, error: 'Forbidden', message, errorCode: 'insufficient_scope' });
      const cases: [string, string, Json][] = [
        [
          summary,
          '?fields=client_id,callbacks',
          forbidden('Some fields cannot be read with the permissions granted by the bearer token scopes: callbacks (read:clients or read:client_keys).'),
        ],
        [
          summary,
          '?fields=callbacks,client_secret',
          forbidden(
            'Some fields cannot be read with the permissions granted by the bearer token scopes: callbacks (read:clients or read:client_keys), client_secret (read:client_keys or read:client_credentials).',
          ),
        ],
        [
          config,
          '?fields=name,client_secret',
          forbidden('Some fields cannot be read with the permissions granted by the bearer token scopes: client_secret (read:client_keys or read:client_credentials).'),
        ],
      ];
      for (const [scopeToken, query, body] of cases) {
        const res = await list(query, { token: scopeToken });
        assert.equal(res.statusCode, 403, query);
        assert.deepEqual(res.json(), body, query);
      }
      // Excluding what cannot be read, or asking for what can, is fine.
      const excluded = await listOk('?fields=client_secret&include_fields=false', { token: config });
      assert.ok(excluded.every((c) => !('client_secret' in c)));
      const readable = await listOk('?fields=client_id,name', { token: summary });
      assert.ok(readable.every((c) => Object.keys(c).every((k) => k === 'client_id' || k === 'name')));
    });

    it('no token is a 401; a token without any of the four read scopes is a 403', async () => {
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/v2/clients', headers: { host: DOMAIN } });
      assert.equal(anonymous.statusCode, 401);
      assert.deepEqual(anonymous.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' });
      for (const scope of ['create:clients', 'read:client_grants', 'update:clients delete:clients']) {
        const res = await list('', { token: await t.managementToken(scope) });
        assert.equal(res.statusCode, 403, scope);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: 'Insufficient scope, expected any of: read:clients, read:client_keys, read:client_credentials, read:client_summary',
          errorCode: 'insufficient_scope',
        });
      }
    });
  });

  describe('paging', () => {
    let t: TestApp;
    let token: string;
    /** Every client, in the list's order. */
    let everyId: string[];

    before(async () => {
      t = await createTestApp();
      token = await t.managementToken();
      await seedClients(t, 60, 'Paged');
      const res = await t.management('GET', '/api/v2/clients?per_page=100&fields=client_id', { token });
      everyId = ids(res.json() as Json[]);
      assert.equal(everyId.length, 62, '60 seeded, the admin client and the global client');
    });
    after(() => t.close());

    const get = (query: string) => t.management('GET', `/api/v2/clients${query}`, { token });
    const getOk = async (query: string) => {
      const res = await get(query);
      assert.equal(res.statusCode, 200, `${query} → ${res.body}`);
      return res.json() as unknown;
    };

    it('offset: per_page defaults to 50 and is 0 to 100 (101 fails)', async () => {
      assert.equal(((await getOk('?fields=client_id')) as Json[]).length, 50);
      assert.deepEqual(ids((await getOk('?per_page=100&fields=client_id')) as Json[]), everyId);
      assert.deepEqual(await getOk('?per_page=0'), []);
      assert.deepEqual(await getOk('?per_page=0&include_totals=true'), { total: 62, start: 0, limit: 0, clients: [] });
      const cases: [string, Json][] = [
        ['?per_page=101', queryError('Value 101 is greater than maximum 100', 'per_page', Q.per_page)],
        ['?per_page=-1', queryError('Value -1 is less than minimum 0', 'per_page', Q.per_page)],
        ['?per_page=ten', queryError('Expected type integer but found type string', 'per_page', Q.per_page)],
        ['?page=-1', queryError('Value -1 is less than minimum 0', 'page', Q.page)],
      ];
      for (const [query, body] of cases) {
        const res = await get(query);
        assert.equal(res.statusCode, 400, query);
        assert.deepEqual(res.json(), body, query);
      }
    });

    it('offset: include_totals gives exactly total, start, limit, clients with start = page × per_page', async () => {
      const body = (await getOk('?page=2&per_page=10&include_totals=true&fields=client_id')) as Json;
      assert.deepEqual(Object.keys(body), ['total', 'start', 'limit', 'clients']);
      assert.deepEqual({ ...body, clients: ids(body.clients as Json[]) }, { total: 62, start: 20, limit: 10, clients: everyId.slice(20, 30) });
      const plain = (await getOk('?page=2&per_page=10&fields=client_id')) as Json[];
      assert.ok(Array.isArray(plain));
      assert.deepEqual(ids(plain), everyId.slice(20, 30));
    });

    it('offset: the pages cover every client once; a page past the end is empty', async () => {
      const seen: string[] = [];
      for (let page = 0; page < 3; page++) seen.push(...ids((await getOk(`?page=${page}&per_page=25&fields=client_id`)) as Json[]));
      assert.deepEqual(seen, everyId);
      assert.deepEqual(await getOk('?page=3&per_page=25'), []);
      assert.deepEqual(await getOk('?page=7&per_page=10&include_totals=true'), { total: 62, start: 70, limit: 10, clients: [] });
    });

    it('checkpoint: take is 1 to 100 (0 and 101 fail)', async () => {
      for (const [query, body] of [
        ['?take=0', queryError('Value 0 is less than minimum 1', 'take', Q.take)],
        ['?take=101', queryError('Value 101 is greater than maximum 100', 'take', Q.take)],
      ] as const) {
        const res = await get(query);
        assert.equal(res.statusCode, 400, query);
        assert.deepEqual(res.json(), body, query);
      }
      const one = (await getOk('?take=1&fields=client_id')) as Json;
      assert.deepEqual(Object.keys(one), ['clients', 'next']);
      assert.deepEqual(ids(one.clients as Json[]), everyId.slice(0, 1));
      const hundred = (await getOk('?take=100&fields=client_id')) as Json;
      assert.deepEqual(Object.keys(hundred), ['clients'], 'no next when everything fits');
      assert.deepEqual(ids(hundred.clients as Json[]), everyId);
    });

    it('checkpoint: from/take walk every client once; next is absent on the last page', async () => {
      const seen: string[] = [];
      let query = '?take=7&fields=client_id';
      for (let n = 0; n < 20; n++) {
        const page = (await getOk(query)) as { clients: Json[]; next?: string };
        seen.push(...ids(page.clients));
        if (!('next' in page)) break;
        assert.deepEqual(Object.keys(page), ['clients', 'next']);
        assert.equal(typeof page.next, 'string');
        assert.notEqual(page.next, '');
        assert.equal(page.clients.length, 7);
        query = `?take=7&fields=client_id&from=${encodeURIComponent(page.next!)}`;
      }
      assert.deepEqual(seen, everyId);

      // A last page that is exactly full has no next either.
      const first = (await getOk('?take=31&fields=client_id')) as { clients: Json[]; next?: string };
      assert.ok(first.next);
      const second = (await getOk(`?take=31&fields=client_id&from=${encodeURIComponent(first.next)}`)) as Json;
      assert.deepEqual(Object.keys(second), ['clients']);
      assert.deepEqual(ids(second.clients as Json[]), everyId.slice(31));

      // from without take: take defaults to 50.
      const rest = (await getOk(`?fields=client_id&from=${encodeURIComponent(first.next)}`)) as Json;
      assert.deepEqual(ids(rest.clients as Json[]), everyId.slice(31));
    });

    it('checkpoint: from/take win over page/per_page/include_totals sent together (as the SDK does)', async () => {
      const page = (await getOk('?page=0&per_page=50&include_totals=true&take=5&fields=client_id')) as { clients: Json[]; next?: string };
      assert.deepEqual(Object.keys(page), ['clients', 'next']);
      assert.deepEqual(ids(page.clients), everyId.slice(0, 5));
      const next = (await getOk(`?page=3&per_page=50&include_totals=true&take=5&fields=client_id&from=${encodeURIComponent(page.next!)}`)) as Json;
      assert.deepEqual(Object.keys(next), ['clients', 'next']);
      assert.deepEqual(ids(next.clients as Json[]), everyId.slice(5, 10));
    });

    it('checkpoint: a forged or expired next is a 400 (valid 24 hours)', async () => {
      const first = (await getOk('?take=1')) as { next: string };
      const forged = await get(`?take=1&from=${encodeURIComponent(`${first.next.slice(0, -4)}AAAA`)}`);
      const invalid = queryError('Invalid or expired checkpoint', 'from', Q.from);
      assert.equal(forged.statusCode, 400);
      assert.deepEqual(forged.json(), invalid);
      // A token is fetched at each shifted time (the list's own token would have expired too).
      const later = (query: string) => t.management('GET', `/api/v2/clients${query}`);
      await withClockAdvanced(t, CHECKPOINT_TTL_MS - 60_000, async () => {
        assert.equal((await later(`?take=1&from=${encodeURIComponent(first.next)}`)).statusCode, 200, 'still valid just under 24 hours');
      });
      await withClockAdvanced(t, CHECKPOINT_TTL_MS + 60_000, async () => {
        const expired = await later(`?take=1&from=${encodeURIComponent(first.next)}`);
        assert.equal(expired.statusCode, 400);
        assert.deepEqual(expired.json(), invalid);
      });
    });

    it('checkpoint: every surviving client is visited exactly once while clients are created and deleted between pages', async () => {
      const before = new Set(everyId);
      // The admin client (whose token lists) and the global client (not deletable) stay.
      const globalId = ((await getOk('?is_global=true&fields=client_id')) as Json[])[0]!.client_id as string;
      const keep = new Set([t.admin.client_id, globalId]);
      const seen: string[] = [];
      const deleted = new Set<string>();
      let query = '?take=5&fields=client_id';
      for (let n = 0; n < 40; n++) {
        const page = (await getOk(query)) as { clients: Json[]; next?: string };
        seen.push(...ids(page.clients));
        // Between pages: delete one client already seen and one not seen yet, and create two.
        const seenOne = seen.find((id) => !deleted.has(id) && !keep.has(id));
        const unseen = [...before].filter((id) => !seen.includes(id) && !deleted.has(id) && !keep.has(id));
        const victims = [seenOne, unseen[Math.floor(unseen.length / 2)]].filter((id): id is string => id !== undefined);
        for (const id of victims) {
          const res = await t.management('DELETE', `/api/v2/clients/${id}`, { token });
          if (res.statusCode === 204) deleted.add(id);
        }
        for (let i = 0; i < 2; i++) {
          const res = await t.management('POST', '/api/v2/clients', { token, body: { name: `Churn ${n}.${i}` } });
          assert.equal(res.statusCode, 201, res.body);
        }
        if (page.next === undefined) break;
        query = `?take=5&fields=client_id&from=${encodeURIComponent(page.next)}`;
      }
      assert.equal(new Set(seen).size, seen.length, 'no client is visited twice');
      for (const id of before) {
        if (!deleted.has(id)) assert.ok(seen.includes(id), `surviving client ${id} was skipped`);
      }
      assert.ok([...deleted].some((id) => !seen.includes(id)), 'some clients were deleted before their page came');
      assert.ok(seen.includes(globalId) && seen.includes(t.admin.client_id));
    });
  });

  describe('q', () => {
    let t: TestApp;
    let token: string;
    const ORG_A = 'org_AAAAAAAAAAAAAAAA';
    const ORG_B = 'org_BBBBBBBBBBBBBBBB';
    const AUDIENCE = 'https://orgs.example.com/';
    const client: Record<string, string> = {};

    before(async () => {
      // The q bucket's default (20/5) is lower than these tests need; its own test sets it low on purpose.
      t = await createTestApp({ env: { GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY: '100000/100000' } });
      token = await t.managementToken();
      const rs = await t.management('POST', '/api/v2/resource-servers', { token, body: { identifier: AUDIENCE, scopes: [] } });
      assert.equal(rs.statusCode, 201, rs.body);
      // The organizations API is not there yet: organizations and their client-grant links go in directly.
      const db = t.ctx.database.db;
      const now = new Date().toISOString();
      for (const [id, name] of [[ORG_A, 'acme'], [ORG_B, 'globex']] as const) {
        await db.insertInto('organizations').values({ tenant_id: t.tenant.id, id, name, display_name: null, branding: null, metadata: '{}', created_at: now }).execute();
      }
      // a: any organization and ORG_A; b: ORG_A; c: any organization; d: ORG_B; e: a grant without organizations.
      const plan: Record<string, { any: boolean; orgs: string[] }> = {
        a: { any: true, orgs: [ORG_A] },
        b: { any: false, orgs: [ORG_A] },
        c: { any: true, orgs: [] },
        d: { any: false, orgs: [ORG_B] },
        e: { any: false, orgs: [] },
      };
      for (const [key, { any, orgs }] of Object.entries(plan)) {
        const res = await t.management('POST', '/api/v2/clients', {
          token,
          body: { name: `Org client ${key}`, app_type: 'non_interactive', token_endpoint_auth_method: 'client_secret_post' },
        });
        assert.equal(res.statusCode, 201, res.body);
        client[key] = (res.json() as Json).client_id as string;
        const grant = await t.management('POST', '/api/v2/client-grants', {
          token,
          body: { client_id: client[key], audience: AUDIENCE, scope: [], organization_usage: 'allow', allow_any_organization: any },
        });
        assert.equal(grant.statusCode, 201, grant.body);
        for (const org of orgs) {
          await db
            .insertInto('organization_client_grants')
            .values({ tenant_id: t.tenant.id, organization_id: org, grant_id: (grant.json() as Json).id as string, created_at: now })
            .execute();
        }
      }
    });
    after(() => t.close());

    const get = (query: string, options: { token?: string } = {}) => t.management('GET', `/api/v2/clients${query}`, { token: options.token ?? token });
    const q = (value: string) => `?q=${encodeURIComponent(value)}`;

    /** Every client a q query finds, walking its checkpoint pages. */
    async function walk(query: string, take: number): Promise<string[]> {
      const seen: string[] = [];
      let url = `${query}&take=${take}`;
      for (let n = 0; n < 20; n++) {
        const res = await get(url);
        assert.equal(res.statusCode, 200, `${url} → ${res.body}`);
        const page = res.json() as { clients: Json[]; next?: string };
        assert.ok(Object.keys(page).every((k) => k === 'clients' || k === 'next'));
        seen.push(...ids(page.clients));
        if (page.next === undefined) return seen;
        url = `${query}&take=${take}&from=${encodeURIComponent(page.next)}`;
      }
      throw new Error('too many pages');
    }

    it('client_grant.allow_any_organization:true finds the clients with a grant allowing any organization', async () => {
      assert.deepEqual(await walk(q('client_grant.allow_any_organization:true'), 50), sorted([client.a!, client.c!]));
      assert.deepEqual(await walk(q('client_grant.allow_any_organization:true'), 1), sorted([client.a!, client.c!]));
    });

    it('client_grant.organization_id:org_… finds the clients with a grant linked to that organization', async () => {
      assert.deepEqual(await walk(q(`client_grant.organization_id:${ORG_A}`), 50), sorted([client.a!, client.b!]));
      assert.deepEqual(await walk(q(`client_grant.organization_id:${ORG_A}`), 1), sorted([client.a!, client.b!]));
      assert.deepEqual(await walk(q(`client_grant.organization_id:${ORG_B}`), 1), [client.d!]);
      assert.deepEqual(await walk(q('client_grant.organization_id:org_CCCCCCCCCCCCCCCC'), 10), []);
    });

    it('q returns the checkpoint shape, with fields and field visibility applied', async () => {
      const res = await get(`${q(`client_grant.organization_id:${ORG_A}`)}&take=10&fields=client_id,name`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Json;
      assert.deepEqual(Object.keys(body), ['clients']);
      for (const c of body.clients as Json[]) assert.deepEqual(Object.keys(c).sort(), ['client_id', 'name']);
      const summary = await t.managementToken('read:client_summary');
      const limited = await get(`${q('client_grant.allow_any_organization:true')}&take=10`, { token: summary });
      for (const c of (limited.json() as { clients: Json[] }).clients) assert.ok(Object.keys(c).every((k) => SUMMARY_FIELDS.includes(k)));
      // The SDK sends the offset parameters too: from/take still win.
      const sdk = await get(`${q('client_grant.allow_any_organization:true')}&page=0&per_page=50&include_totals=true&take=1`);
      assert.equal(sdk.statusCode, 200, sdk.body);
      assert.deepEqual(Object.keys(sdk.json() as Json), ['clients', 'next']);
    });

    it('q combined with another filter is refused', async () => {
      for (const [filter, name] of [
        ['is_global=false', 'is_global'],
        ['is_first_party=false', 'is_first_party'],
        ['app_type=non_interactive', 'app_type'],
        ['external_client_id=https%3A%2F%2Fcimd.example.com%2Fa.json', 'external_client_id'],
      ] as const) {
        const res = await get(`${q('client_grant.allow_any_organization:true')}&take=10&${filter}`);
        assert.equal(res.statusCode, 400, filter);
        assert.deepEqual(res.json(), queryError(`q cannot be used in combination with other filters (${name})`, 'q', Q.q), filter);
      }
    });

    it('q without from/take is refused', async () => {
      for (const paging of ['', '&page=0&per_page=10', '&include_totals=true', '&page=0&per_page=50&include_totals=true']) {
        const res = await get(`${q(`client_grant.organization_id:${ORG_A}`)}${paging}`);
        assert.equal(res.statusCode, 400, paging);
        assert.deepEqual(res.json(), queryError('q requires the from and take paging parameters (checkpoint pagination)', 'q', Q.q), paging);
      }
    });

    it('any other q is refused', async () => {
      for (const value of [
        'name:foo',
        'client_grant.allow_any_organization:false',
        'client_grant.organization_id:acme',
        `client_grant.organization_id:${ORG_A} OR client_grant.allow_any_organization:true`,
        `client_grant.organization_id:${ORG_A} AND name:x`,
        'client_grant.audience:https://orgs.example.com/',
        '',
        '*',
      ]) {
        const res = await get(`${q(value)}&take=10`);
        assert.equal(res.statusCode, 400, value);
        assert.deepEqual(
          res.json(),
          queryError('Only client_grant.organization_id:{organization_id} and client_grant.allow_any_organization:true are permitted', 'q', Q.q),
          value,
        );
      }
    });

    it('a deleted client leaves the q results', async () => {
      const gone = await t.management('POST', '/api/v2/clients', { token, body: { name: 'Leaving', token_endpoint_auth_method: 'client_secret_post' } });
      const id = (gone.json() as Json).client_id as string;
      const grant = await t.management('POST', '/api/v2/client-grants', {
        token,
        body: { client_id: id, audience: AUDIENCE, scope: [], organization_usage: 'allow', allow_any_organization: true },
      });
      assert.equal(grant.statusCode, 201, grant.body);
      assert.ok((await walk(q('client_grant.allow_any_organization:true'), 50)).includes(id));
      assert.equal((await t.management('DELETE', `/api/v2/clients/${id}`, { token })).statusCode, 204);
      assert.deepEqual(await walk(q('client_grant.allow_any_organization:true'), 50), sorted([client.a!, client.c!]));
    });
  });

  describe('q rate limit', () => {
    let t: TestApp;

    before(async () => {
      t = await createTestApp({ env: { GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY: '2/2' } });
    });
    after(() => t.close());

    it('q draws from its own, lower bucket: the third q request within a second is a 429, plain GET /clients still answers', async () => {
      const token = await t.managementToken();
      const get = (query: string) => t.management('GET', `/api/v2/clients${query}`, { token });
      const withQ = '?q=client_grant.allow_any_organization%3Atrue&take=10';

      // Plain lists do not draw from the q bucket.
      for (let i = 0; i < 5; i++) assert.equal((await get('?per_page=1')).statusCode, 200);

      const started = Date.now();
      const first = await get(withQ);
      const second = await get(withQ);
      const third = await get(withQ);
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 1000, `the three requests took ${elapsed} ms`);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(third.statusCode, 429, third.body);
      assert.deepEqual(third.json(), { statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached', errorCode: 'too_many_requests' });
      assert.equal(third.headers['x-ratelimit-limit'], '2');
      assert.equal(third.headers['x-ratelimit-remaining'], '0');
      assert.match(String(third.headers['x-ratelimit-reset']), /^\d+$/);

      const plain = await get('?per_page=1');
      assert.equal(plain.statusCode, 200, plain.body);
      const checkpoint = await get('?take=1');
      assert.equal(checkpoint.statusCode, 200, checkpoint.body);
    });
  });
});
