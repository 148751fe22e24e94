/**
 * Server processes, directories and PostgreSQL databases a test file makes,
 * stopped, removed and dropped by one after hook even when a test fails.
 */
import { randomBytes } from 'node:crypto';
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

/** The settings every process behind one load balancer shares: one database, one domain, one master key, one admin client. */
export function loadBalancedEnv(databaseUrl: string, domain: string, adminClientId: string) {
  return {
    DATABASE_URL: databaseUrl,
    GATEHOUSE_DOMAIN: domain,
    GATEHOUSE_MASTER_KEY: randomBytes(32).toString('hex'),
    GATEHOUSE_ADMIN_CLIENT_ID: adminClientId,
    GATEHOUSE_ADMIN_CLIENT_SECRET: randomBytes(32).toString('base64url'),
  };
}
