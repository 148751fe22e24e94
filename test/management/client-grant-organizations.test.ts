/**
 * GET /api/v2/client-grants/{id}/organizations through the `auth0` SDK
 * (clientGrants.organizations.list): the organizations a grant is linked to,
 * checkpoint paging (`from`/`take`, `next` absent on the last page), offset
 * paging with totals, another grant's links never shown, and the refusals
 * (unknown grant 404, forged checkpoint 400, the scope 403). SQLite and
 * PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManagementError } from 'auth0';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { postgresAvailable } from '../helpers/postgres.js';

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));
const API = 'https://api.example.com/';

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`client grant organizations: ${database}`, { skip: database === 'PostgreSQL' && skipPostgres }, () => {
    let t: TestApp;
    let grantId: string;
    let otherGrantId: string;
    const orgIds: string[] = [];

    before(async () => {
      t = await createTestApp({ postgres: database === 'PostgreSQL' });
      assert.equal((await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'API', scopes: [{ value: 'a' }] } })).statusCode, 201);
      const grant = async () => {
        const client = await insertClient(t);
        const res = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: ['a'], organization_usage: 'allow' } });
        assert.equal(res.statusCode, 201, res.body);
        return (res.json() as { id: string }).id;
      };
      grantId = await grant();
      otherGrantId = await grant();
      for (const name of ['acme', 'globex', 'initech', 'umbrella', 'hooli']) {
        const res = await t.management('POST', '/api/v2/organizations', { body: { name, display_name: name.toUpperCase() } });
        assert.equal(res.statusCode, 201, res.body);
        const id = (res.json() as { id: string }).id;
        orgIds.push(id);
        if (name !== 'hooli') {
          assert.equal((await t.management('POST', `/api/v2/organizations/${id}/client-grants`, { body: { grant_id: grantId } })).statusCode, 201);
        } else {
          assert.equal((await t.management('POST', `/api/v2/organizations/${id}/client-grants`, { body: { grant_id: otherGrantId } })).statusCode, 201);
        }
      }
    });
    after(() => t.close());

    it('pages the linked organizations with checkpoints through the SDK', async () => {
      const sdk = await inProcessSdk(t);
      const expected = orgIds.slice(0, 4).sort();
      const first = await sdk.clientGrants.organizations.list(grantId, { take: 3 });
      assert.deepEqual(first.data.map((o) => o.id), expected.slice(0, 3));
      assert.equal(first.data[0]!.display_name, first.data[0]!.name!.toUpperCase());
      assert.ok(first.hasNextPage());
      // (getNextPage moves the SDK's page itself on.)
      const second = await first.getNextPage();
      assert.deepEqual(second.data.map((o) => o.id), expected.slice(3));
      assert.equal(second.hasNextPage(), false);
      const all: string[] = [];
      for await (const org of await sdk.clientGrants.organizations.list(grantId, { take: 2 })) all.push(org.id!);
      assert.deepEqual(all, expected);
      // The other grant sees only its own link.
      const other = await sdk.clientGrants.organizations.list(otherGrantId, { take: 10 });
      assert.deepEqual(other.data.map((o) => o.name), ['hooli']);
    });

    it('offset paging with totals', async () => {
      const res = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations?page=1&per_page=2&include_totals=true`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { organizations: { id: string }[]; start: number; limit: number; total: number };
      assert.equal(body.total, 4);
      assert.equal(body.start, 2);
      assert.deepEqual(body.organizations.map((o) => o.id), orgIds.slice(0, 4).sort().slice(2));
      const plain = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations`);
      assert.equal((plain.json() as unknown[]).length, 4);
    });

    it('refuses an unknown grant, a forged checkpoint, another grant\'s checkpoint and a token without the scope', async () => {
      const sdk = await inProcessSdk(t);
      await assert.rejects(sdk.clientGrants.organizations.list('cgr_nope', { take: 5 }), (e: ManagementError) => {
        assert.equal(e.statusCode, 404);
        assert.match(JSON.stringify(e.body), /The grant does not exist/);
        return true;
      });
      const forged = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations?from=abc&take=2`);
      assert.equal(forged.statusCode, 400);
      assert.equal(forged.json().errorCode, 'invalid_query_string');
      const page = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations?take=1`);
      const next = (page.json() as { next: string }).next;
      const replayed = await t.management('GET', `/api/v2/client-grants/${otherGrantId}/organizations?take=1&from=${encodeURIComponent(next)}`);
      assert.equal(replayed.statusCode, 400);
      const badTake = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations?take=101`);
      assert.equal(badTake.statusCode, 400);
      const reader = await t.managementToken('read:client_grants');
      const refused = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations`, { token: reader });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /read:organization_client_grants/);
      const allowed = await t.management('GET', `/api/v2/client-grants/${grantId}/organizations`, { token: await t.managementToken('read:organization_client_grants') });
      assert.equal(allowed.statusCode, 200);
    });
  });
}
