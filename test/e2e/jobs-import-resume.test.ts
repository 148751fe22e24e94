/**
 * A user import survives its process being killed: the built server (its own
 * process, real HTTPS, SQLite in its data directory) is SIGKILLed while the
 * import is half done, started again on the same data, and the job resumes
 * from its committed progress and completes with every user exactly once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { multipartBody } from '../helpers/multipart.js';
import { caFetch, cleanUp, managementToken, waitFor } from './support/https.js';

const USERS = 60_000;
/** Short, so the restarted process takes the job over soon after the dead one's lease ran out. */
const LEASE_SECONDS = '2';

interface Job {
  id: string;
  status: string;
  percentage_done?: number;
  summary?: { failed: number; updated: number; inserted: number; total: number };
}

describe('users import: a killed process, resumed', () => {
  const servers: ServerProcess[] = [];
  after(() => cleanUp(servers, servers.slice(0, 1).map((s) => s.dataDir)));

  it('finishes after a SIGKILL mid-job with no user missing or duplicated', { timeout: 180_000 }, async () => {
    const env = { GATEHOUSE_JOB_LEASE: LEASE_SECONDS, GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' };
    const first = await startServerProcess({ env });
    servers.push(first);
    const fetch = caFetch(fs.readFileSync(first.certFile));
    const call = async (server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const token = await managementToken(server);
      return fetch(`${server.baseUrl}/api/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && typeof body === 'string' && { 'content-type': 'application/json' }), ...headers },
        body,
      });
    };

    const connection = await (await call(first, 'POST', '/connections', JSON.stringify({ name: 'Username-Password-Authentication', strategy: 'auth0' }))).json() as { id: string };
    const hash = bcrypt.hashSync('imported-pw', 4);
    const users = Array.from({ length: USERS }, (_, i) => JSON.stringify({ email: `killed${i}@resume.example`, password_hash: hash }));
    const { payload, contentType } = await multipartBody({ connection_id: connection.id }, { users: { content: `[\n${users.join(',\n')}\n]`, filename: 'users.json' } });
    const created = await call(first, 'POST', '/jobs/users-imports', payload, { 'content-type': contentType });
    assert.equal(created.status, 202, await created.clone().text());
    const { id } = (await created.json()) as Job;

    // Kill the process once some batches are committed and before the last one.
    const token = await managementToken(first);
    let seen: Job | undefined;
    const midway = await waitFor(async () => {
      const res = await fetch(`${first.baseUrl}/api/v2/jobs/${id}`, { headers: { authorization: `Bearer ${token}` } });
      seen = (await res.json()) as Job;
      return seen.status === 'processing' && (seen.percentage_done ?? 0) > 0;
    }, 60_000);
    first.child.kill('SIGKILL');
    await new Promise<void>((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve() : first.child.once('exit', () => resolve())));
    assert.ok(midway, `the job never got half way: ${JSON.stringify(seen)}`);
    assert.ok((seen!.percentage_done ?? 100) < 100, `the job was already done when killed: ${JSON.stringify(seen)}`);

    const second = await startServerProcess({ env, dataDir: first.dataDir, port: first.port });
    servers.push(second);
    let job: Job | undefined;
    const done = await waitFor(async () => {
      job = (await (await call(second, 'GET', `/jobs/${id}`)).json()) as Job;
      return job.status === 'completed' || job.status === 'failed';
    }, 120_000);
    assert.ok(done, `the job did not finish: ${JSON.stringify(job)}`);
    assert.equal(job!.status, 'completed');
    assert.deepEqual(job!.summary, { failed: 0, updated: 0, inserted: USERS, total: USERS });
    assert.equal((await call(second, 'GET', `/jobs/${id}/errors`)).status, 204);
    const totals = (await (await call(second, 'GET', '/users?include_totals=true&per_page=1')).json()) as { total: number };
    assert.equal(totals.total, USERS);
    const last = (await (await call(second, 'GET', `/users?q=${encodeURIComponent(`email:"killed${USERS - 1}@resume.example"`)}`)).json()) as unknown[];
    assert.equal(last.length, 1);
  });
});
