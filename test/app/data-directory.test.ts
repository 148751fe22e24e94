/**
 * What a start says and does about the data directory and the database: the
 * directory 0700 and its secrets 0600 (existing ones tightened, with a log
 * line), the migrations an upgrade applied named in the log, and a warning
 * when the default domain is no tenant's of a database that has tenants (a
 * restore or a start on another port).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/platform/config.js';
import { createContext, ensureDefaultTenant } from '../../src/app/context.js';
import { secureDataDirectory } from '../../src/platform/data-directory.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

function capturingLogger(): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done(); } });
  return { logger: pino({ level: 'info' }, stream), lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the data directory and the start-up log', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-datadir-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('a first start creates the directory 0700 and the database, its WAL and the master key 0600, and names the migrations it applied', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const config = loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DOMAIN: 'first.example.com', LOG_LEVEL: 'info' });
    const { logger, lines } = capturingLogger();
    const ctx = await createContext(config, logger);
    try {
      await ensureDefaultTenant(ctx);
      assert.equal(mode(dataDir), 0o700);
      for (const file of fs.readdirSync(dataDir)) assert.equal(mode(path.join(dataDir, file)), 0o600, `${file} is 0600`);
      assert.ok(fs.existsSync(path.join(dataDir, 'gatehouse.db-wal')), 'the WAL exists (and was checked above)');
      const migrated = lines().find((l) => Array.isArray(l.migrations));
      assert.ok(migrated, 'the applied migrations are logged');
      assert.equal((migrated.migrations as string[])[0], '0001_foundation');
      assert.match(String(migrated.msg), /^applied \d+ database migration\(s\): 0001_foundation, /);
    } finally {
      await ctx.close();
    }
    // A restart at the latest migration applies none and says nothing about them.
    const again = capturingLogger();
    const restarted = await createContext(config, again.logger);
    await restarted.close();
    assert.equal(again.lines().filter((l) => Array.isArray(l.migrations)).length, 0);
  });

  it('tightens a world-readable directory, database and key left by an older version, saying so, and leaves the certificate alone', () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'gatehouse.db'), '', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'gatehouse.db-wal'), '', { mode: 0o644 });
    fs.mkdirSync(path.join(dataDir, 'tls'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'tls', 'key.pem'), 'k', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'c', { mode: 0o644 });
    for (const file of ['gatehouse.db', 'gatehouse.db-wal', 'tls/key.pem', 'tls/cert.pem']) fs.chmodSync(path.join(dataDir, file), 0o644);
    const changed = secureDataDirectory(dataDir, path.join(dataDir, 'gatehouse.db'));
    assert.equal(mode(dataDir), 0o700);
    assert.equal(mode(path.join(dataDir, 'tls')), 0o700);
    assert.equal(mode(path.join(dataDir, 'gatehouse.db')), 0o600);
    assert.equal(mode(path.join(dataDir, 'gatehouse.db-wal')), 0o600);
    assert.equal(mode(path.join(dataDir, 'tls', 'key.pem')), 0o600);
    assert.equal(mode(path.join(dataDir, 'tls', 'cert.pem')), 0o644);
    assert.equal(changed.length, 5, changed.join('\n'));
    assert.ok(changed.some((l) => l === `tightened the permissions of ${path.join(dataDir, 'gatehouse.db')} from 0644 to 0600`), changed.join('\n'));
    // Nothing left to tighten: a second start says nothing.
    assert.deepEqual(secureDataDirectory(dataDir, path.join(dataDir, 'gatehouse.db')), []);
  });

  it('warns when the default domain is no tenant of a database that has tenants (a restore onto another port)', async () => {
    const dataDir = tempDir();
    const first = await createContext(loadConfig({ GATEHOUSE_DATA_DIR: dataDir, PORT: '3000', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    await ensureDefaultTenant(first);
    await first.close();

    const { logger, lines } = capturingLogger();
    const moved = await createContext(loadConfig({ GATEHOUSE_DATA_DIR: dataDir, PORT: '3001', LOG_LEVEL: 'info' }), logger);
    try {
      const bootstrap = await ensureDefaultTenant(moved);
      assert.equal(bootstrap.created, true);
      const warning = lines().find((l) => l.level === 40 && l.defaultDomain === 'localhost:3001');
      assert.ok(warning, JSON.stringify(lines()));
      assert.deepEqual(warning.tenants, ['localhost:3000']);
      assert.match(String(warning.msg), /the default domain localhost:3001 is no tenant's of this database \(it has localhost:3000\).*GATEHOUSE_DOMAIN/);
    } finally {
      await moved.close();
    }

    // Back on the first port: the tenant is found, nothing is said.
    const back = capturingLogger();
    const again = await createContext(loadConfig({ GATEHOUSE_DATA_DIR: dataDir, PORT: '3000', LOG_LEVEL: 'info' }), back.logger);
    try {
      assert.equal((await ensureDefaultTenant(again)).created, false);
      assert.equal(back.lines().filter((l) => l.level === 40).length, 0, JSON.stringify(back.lines()));
    } finally {
      await again.close();
    }
  });
});
