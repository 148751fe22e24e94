/** The `gatehouse` command (bin/gatehouse.cjs running the built dist/): tenant administration. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { tempDir } from './helpers/app.js';
import { ROOT } from './helpers/server-process.js';

describe('gatehouse tenants …', () => {
  const dataDir = tempDir('gatehouse-cli-');
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, 'bin/gatehouse.cjs'), ...args], {
      env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });

  it('creates, lists and prints the credentials of tenants', () => {
    const created = run('tenants', 'create', 'auth.example.com', '--name', 'example');
    assert.equal(created.status, 0, created.stderr);
    const tenant = JSON.parse(created.stdout) as Record<string, string>;
    assert.equal(tenant.tenant, 'example');
    assert.equal(tenant.issuer, 'https://auth.example.com/');
    assert.equal(tenant.audience, 'https://auth.example.com/api/v2/');
    assert.match(tenant.client_id!, /^[A-Za-z0-9]{32}$/);
    assert.match(tenant.client_secret!, /^[A-Za-z0-9_-]{64}$/);

    const list = run('tenants', 'list');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /^example\tauth\.example\.com\t/m);

    const credentials = run('tenants', 'credentials', 'auth.example.com');
    assert.equal(credentials.status, 0, credentials.stderr);
    const printed = JSON.parse(credentials.stdout) as Record<string, string>;
    assert.equal(printed.client_id, tenant.client_id);
    assert.equal(printed.client_secret, tenant.client_secret);
  });

  it('refuses a duplicate domain, a bad domain and unknown commands, with a message and a non-zero exit', () => {
    const dup = run('tenants', 'create', 'auth.example.com', '--name', 'other');
    assert.equal(dup.status, 1);
    assert.match(dup.stderr, /already serves auth\.example\.com/);
    const bad = run('tenants', 'create', 'https://x/');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /not a valid domain/);
    const unknown = run('frobnicate');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });

  it('sets a tenant rate limit', () => {
    const res = run('tenants', 'set-rate-limit', 'auth.example.com', 'management', '20/10');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /management rate limit set to 20\/10/);
    const bad = run('tenants', 'set-rate-limit', 'auth.example.com', 'management', 'fast');
    assert.equal(bad.status, 1);
  });
});

/**
 * A Node.js older than 22: GATEHOUSE_TEST_OLD_NODE, or the first `node` on PATH
 * (or at /usr/bin, /usr/local/bin) whose major is below 22, such as a system
 * Node 20 that `npm test`'s own Node 24 (node_modules/.bin) stands in front of.
 */
function findOldNode(): string | undefined {
  const candidates = [
    process.env.GATEHOUSE_TEST_OLD_NODE,
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => dir && path.join(dir, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  for (const candidate of candidates) {
    if (!candidate || !fs.existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (version.status === 0 && Number(version.stdout.split('.')[0]) < 22) return candidate;
  }
  return undefined;
}

describe('the Node.js that runs gatehouse', () => {
  it('is 22 or newer under npm test (npm scripts run the Node that npm ci installed)', () => {
    assert.ok(Number(process.versions.node.split('.')[0]) >= 22, `npm test runs on Node.js ${process.version}`);
  });

  const oldNode = findOldNode();
  it(
    'refuses a Node.js older than 22 with one line naming the version found',
    { skip: oldNode ? false : 'no Node.js older than 22 is installed (set GATEHOUSE_TEST_OLD_NODE to one)' },
    () => {
      const dataDir = tempDir('gatehouse-old-node-');
      try {
        const res = spawnSync(oldNode!, [path.join(ROOT, 'bin/gatehouse.cjs'), 'tenants', 'list'], {
          env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir },
          encoding: 'utf8',
        });
        const version = spawnSync(oldNode!, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
        assert.equal(res.status, 1);
        assert.equal(res.stdout, '');
        assert.equal(res.stderr, `gatehouse: Node.js 22 or newer is required; this is Node.js ${version} (${fs.realpathSync(oldNode!)})\n`);
        assert.deepEqual(fs.readdirSync(dataDir), [], 'nothing was written before the refusal');
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
