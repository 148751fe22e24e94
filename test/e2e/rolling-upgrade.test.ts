/**
 * A rolling upgrade on PostgreSQL: the previous version, built from git,
 * serves; this version starts beside it on the same database (migrating it
 * while the old one serves); the old one is stopped with SIGTERM while both
 * take requests. No request is lost: every request reaching a process gets a
 * 200 (a refused connection, which never reached a process, and a 503 from
 * the stopping one, which did not handle it, go to the other one, as a load
 * balancer retrying those does). So does a connection the stopping process
 * resets: one it had accepted but held no request on when it closed its idle
 * connections (Node's server.close does), so no handler ever ran for it; the
 * test counts them, and a reset from a process that is not stopping is a
 * lost request.
 *
 * The previous version is GATEHOUSE_TEST_PREVIOUS_REF, else the latest `v*`
 * tag, else where this branch left main (the merge base), else HEAD~1; its
 * tree is taken with `git archive` and built with this checkout's
 * node_modules.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { POSTGRES_ADMIN_URL, postgresAvailable } from '../helpers/postgres.js';
import { freePort, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { httpsRequest, tokenBody, waitFor } from './support/https.js';
import { loadBalancedEnv, tracked } from './support/tracked.js';

const { start, database } = tracked();

function git(...args: string[]): string | undefined {
  const res = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() || undefined : undefined;
}

function previousRef(): string | undefined {
  if (process.env.GATEHOUSE_TEST_PREVIOUS_REF) return process.env.GATEHOUSE_TEST_PREVIOUS_REF;
  const tag = git('describe', '--tags', '--abbrev=0', '--match', 'v*', 'HEAD~1');
  if (tag) return tag;
  const head = git('rev-parse', 'HEAD');
  const base = git('merge-base', 'HEAD', 'main');
  return base && base !== head ? base : git('rev-parse', 'HEAD~1');
}

const ref = previousRef();
const pgAvailable = await postgresAvailable();
const skip = !pgAvailable ? `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL}` : !ref ? 'no previous version in git (a shallow clone?)' : false;

let previousDir: string | undefined;
after(() => {
  if (previousDir) fs.rmSync(previousDir, { recursive: true, force: true });
});

/** The previous version's tree, built; returns its launcher. */
function buildPrevious(commit: string): string {
  previousDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-previous-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${previousDir}"`], { cwd: ROOT });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(previousDir, 'node_modules'));
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: previousDir, stdio: 'ignore' });
  return path.join(previousDir, 'bin/gatehouse.cjs');
}

describe('rolling upgrade on PostgreSQL', { skip }, () => {
  test(`the previous version (${ref?.slice(0, 12)}) and this one serve together, the old one stops, no request is lost`, { timeout: 600_000 }, async () => {
    const commit = git('rev-parse', `${ref}^{commit}`)!;
    const previousBin = buildPrevious(commit);
    const db = await database();
    const portOld = await freePort();
    const domain = `localhost:${portOld}`;
    const shared = { ...loadBalancedEnv(db.url, domain, 'rolling-upgrade-admin'), GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '10000/10000' };
    const body = tokenBody(shared.GATEHOUSE_ADMIN_CLIENT_ID, shared.GATEHOUSE_ADMIN_CLIENT_SECRET, `https://${domain}/api/v2/`);
    const old = await start({ bin: previousBin, port: portOld, env: shared });

    // The load balancer: round-robin over the processes in rotation; a refused connection takes that process out and the request goes to the next.
    const rotation: ServerProcess[] = [old];
    const served = new Map<ServerProcess, number>();
    const lost: string[] = [];
    let running = true;
    let turn = 0;
    let oldStopping = false;
    let retried503 = 0;
    let resetByStopping = 0;
    const send = async (): Promise<void> => {
      for (;;) {
        const target = rotation[turn++ % rotation.length];
        if (!target) {
          running = false;
          return void lost.push('no process in rotation');
        }
        try {
          const res = await httpsRequest(`https://localhost:${target.port}/oauth/token`, {
            ca: fs.readFileSync(target.certFile),
            method: 'POST',
            headers: { host: domain, 'content-type': 'application/json' },
            body,
          });
          if (res.status === 200) served.set(target, (served.get(target) ?? 0) + 1);
          // A process shutting down answers 503 to a request reaching it after its listener closed, without
          // handling it: a load balancer retries that elsewhere (as it must, or take the process out first).
          else if (res.status === 503 && target === old && oldStopping) {
            retried503++;
            continue;
          } else lost.push(`${target === old ? 'old' : 'new'}: ${res.status} ${res.text}`);
          return;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ECONNRESET' && target === old && oldStopping) {
            resetByStopping++;
            continue;
          }
          if (code !== 'ECONNREFUSED') return void lost.push(`${target === old ? 'old' : 'new'}: ${String(error)}`);
          rotation.splice(rotation.indexOf(target), 1);
        }
      }
    };
    const loops = Array.from({ length: 2 }, async () => {
      while (running) await send();
    });
    try {
      assert.ok(await waitFor(() => (served.get(old) ?? 0) >= 20, 60_000), `the previous version does not serve: ${lost.join('\n')}\n${old.output()}`);

      // This version starts on the same database while the old one serves, and joins the rotation.
      const fresh = await start({ port: await freePort(), env: shared, timeoutMs: 180_000 });
      rotation.push(fresh);
      assert.ok(await waitFor(() => (served.get(fresh) ?? 0) >= 20, 60_000), `this version does not serve: ${lost.join('\n')}`);
      const oldBefore = served.get(old) ?? 0;
      assert.ok(await waitFor(() => (served.get(old) ?? 0) >= oldBefore + 10, 60_000), 'the old one stopped serving beside the new one');

      // The switch: the old process is stopped while requests reach it.
      oldStopping = true;
      const oldExit = old.stop();
      assert.equal(await oldExit, 0, old.output().slice(-3000));
      const freshAfter = served.get(fresh) ?? 0;
      assert.ok(await waitFor(() => (served.get(fresh) ?? 0) >= freshAfter + 20, 60_000), lost.join('\n'));
      running = false;
      await Promise.all(loops);
      assert.deepEqual(lost, [], `requests lost during the rolling upgrade (${retried503} answered 503 and ${resetByStopping} reset by the stopping process, and retried)`);
      assert.deepEqual(rotation, [fresh]);
      assert.equal(await fresh.stop(), 0);
    } finally {
      running = false;
      await Promise.all(loops);
    }
  });
});
