/**
 * Server processes, directories and PostgreSQL databases a test file makes,
 * stopped, removed and dropped by one after hook even when a test fails.
 */
import { after } from 'node:test';
import type { TestDatabase } from '../../helpers/postgres.js';
import { createTestDatabase } from '../../helpers/postgres.js';
import { startServerProcess, type ServerProcess, type StartOptions } from '../../helpers/server-process.js';
import { cleanUp } from './https.js';

export function tracked() {
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  after(async () => {
    await cleanUp(servers, dirs);
    for (const db of databases) await db.drop().catch(() => undefined);
  });
  return {
    dirs,
    async start(options: StartOptions = {}): Promise<ServerProcess> {
      const server = await startServerProcess(options);
      servers.push(server);
      if (!dirs.includes(server.dataDir)) dirs.push(server.dataDir);
      return server;
    },
    async database(): Promise<TestDatabase> {
      const db = await createTestDatabase();
      databases.push(db);
      return db;
    },
  };
}
