/**
 * The bundled server (dist/server/, scripts/build-server.mjs) finds its
 * migrations in its own folder, dist/server/migrations/: a first start runs
 * every migration of src/storage/migrations/, in name order, under the names
 * the source gives them (the names databases already record).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, startServerProcess } from '../helpers/server-process.js';

test('the built server migrates a new database with every migration file of src/storage/migrations, in name order', async () => {
  const sources = fs
    .readdirSync(path.join(ROOT, 'src/storage/migrations'))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  const server = await startServerProcess();
  try {
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { migrations?: string[] })
      .find((l) => Array.isArray(l.migrations));
    assert.ok(line, server.output());
    assert.deepEqual(line.migrations, sources);
  } finally {
    assert.equal(await server.stop(), 0, server.output());
  }
});
