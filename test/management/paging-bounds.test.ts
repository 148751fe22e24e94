/**
 * Offset paging bounds, on SQLite and PostgreSQL: page indexes a fuzzer sent
 * (`page=1e20`, `page=99999999999999999999`, `per_page=100&page=92233720368547758`)
 * overflowed both databases' OFFSET and answered 500 on every offset-paged
 * list. `page` is now at most 1000 (src/management/paging.ts), and GET /users
 * pages through the first 1000 records only, as the service does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { postgresAvailable, POSTGRES_ADMIN_URL } from '../helpers/postgres.js';

const LISTS = ['/roles', '/clients', '/users', '/grants', '/connections', '/resource-servers', '/groups', '/client-grants', '/organizations'];

const PAGE_DESCRIPTION = 'Page index of the results to return. First page is 0.';

function pageTooLarge(shown: string) {
  return {
    statusCode: 400,
    error: 'Bad Request',
    message: `Query validation error: 'Value ${shown} is greater than maximum 1000' on property page (${PAGE_DESCRIPTION}).`,
    errorCode: 'invalid_query_string',
  };
}

const USERS_PAGING_LIMIT = {
  statusCode: 400,
  error: 'Bad Request',
  message: 'You can only page through the first 1000 records. See https://auth0.com/docs/users/search/v3/view-search-results-by-page#limitation',
  errorCode: 'invalid_paging',
};

const reachable = await postgresAvailable();

for (const [label, postgres] of [
  ['SQLite', false],
  ['PostgreSQL', true],
] as const) {
  const skip = postgres && !reachable ? `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}` : false;

  describe(`offset paging bounds: ${label}`, { skip }, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await createTestApp({ postgres });
      token = await t.managementToken();
    });
    after(() => t?.close());

    const get = (url: string) => t.management('GET', `/api/v2${url}`, { token });

    for (const [query, shown] of [
      ['page=1e20', '100000000000000000000'],
      ['page=99999999999999999999', '100000000000000000000'],
      // The value as the query string's number reads it (beyond 2^53 it is rounded).
      ['per_page=100&page=92233720368547758', '92233720368547760'],
    ] as const) {
      it(`?${query} is 400 invalid_query_string on every offset-paged list`, async () => {
        for (const list of LISTS) {
          const res = await get(`${list}?${query}`);
          assert.equal(res.statusCode, 400, `${list}?${query}: ${res.body}`);
          assert.deepEqual(res.json(), pageTooLarge(shown), `${list}?${query}`);
        }
      });
    }

    it('page=1001 is refused and page=1000 answers an empty page (every list but /users)', async () => {
      for (const list of LISTS) {
        const refused = await get(`${list}?page=1001&per_page=100`);
        assert.equal(refused.statusCode, 400, `${list}: ${refused.body}`);
        assert.deepEqual(refused.json(), pageTooLarge('1001'), list);
        if (list === '/users') continue;
        const last = await get(`${list}?page=1000&per_page=100&include_totals=true`);
        assert.equal(last.statusCode, 200, `${list}: ${last.body}`);
        const body = last.json() as Record<string, unknown>;
        assert.equal(body.start, 100_000, list);
        assert.equal(body.limit, 100, list);
        const items = Object.values(body).find(Array.isArray);
        assert.deepEqual(items, [], list);
      }
    });

    it('GET /users pages through the first 1000 records only: N × per_page + per_page > 1000 is 400 invalid_paging', async () => {
      for (const query of ['page=9&per_page=100', 'page=19', 'page=999&per_page=1', 'page=0&per_page=100']) {
        const res = await get(`/users?${query}`);
        assert.equal(res.statusCode, 200, `/users?${query}: ${res.body}`);
      }
      for (const query of ['page=10&per_page=100', 'page=20', 'page=1000&per_page=1', 'page=10&per_page=100&include_totals=true']) {
        const res = await get(`/users?${query}`);
        assert.equal(res.statusCode, 400, `/users?${query}: ${res.body}`);
        assert.deepEqual(res.json(), USERS_PAGING_LIMIT, `/users?${query}`);
      }
    });
  });
}
