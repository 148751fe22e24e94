/**
 * User search, users by email, an import job and a ticket driven by the official `auth0` SDK over real
 * HTTPS against the built server running as its own process
 * (test/e2e/clients/auth0-sdk-users.ts does the calls).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, runNode } from './support/https.js';

describe('auth0 SDK: users.list with q (search engine v3) and users by email', () => {
  let server: ServerProcess;
  let out: Record<string, any>;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-users.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('finds users by a wildcard term, sorted', () => {
    assert.deepEqual(out.prefix, ['ann@example.com', 'Anna@Example.com']);
  });

  it('follows the pages of a metadata search with NOT, in descending order', () => {
    assert.deepEqual(out.goldPaged, ['cid@example.com', 'ann@example.com']);
  });

  it('answers totals and only the fields asked', () => {
    assert.equal(out.totals.total, 5);
    assert.deepEqual(out.totals.fields, [['email', 'user_id'], ['email', 'user_id']]);
  });

  it('refuses a malformed query with a 400 the SDK reports', () => {
    assert.equal(out.refused.statusCode, 400);
    assert.equal(out.refused.body.errorCode, 'invalid_query_string');
    assert.equal(out.refused.body.statusCode, 400);
  });

  it('jobs: an import uploaded by the SDK completes, its errors read back', () => {
    assert.deepEqual(out.importJob.created, { type: 'users_import', status: 'pending', connection_id: out.importJob.created.connection_id });
    assert.match(out.importJob.created.connection_id, /^con_/);
    assert.deepEqual(out.importJob.done, { status: 'completed', summary: { failed: 1, updated: 0, inserted: 1, total: 2 } });
    assert.deepEqual(out.importErrors, [{ email: 'bad', codes: ['INVALID_FORMAT'] }]);
  });

  it('tickets: a password change link to the hosted page', () => {
    assert.match(out.ticket, new RegExp(`^https://${server.domain.replace(/[.]/g, '\\.')}/reset-password\\?ticket=`));
  });

  it('finds a user by email, whatever its case', () => {
    assert.deepEqual(out.byEmail, [out.created['Anna@Example.com']]);
  });
});
