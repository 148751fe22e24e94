/**
 * A fresh PostgreSQL database per test file, dropped at the end. Under CI
 * PostgreSQL is required: an unreachable server fails the run instead of
 * skipping the PostgreSQL half of the storage suite.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_ADMIN_URL = process.env.GATEHOUSE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function postgresAvailable(): Promise<boolean> {
  // A loaded 2-core machine (the whole suite, two files at a time) has been seen to take over 2 s to
  // accept a connection; a reachable server answers well within this bound.
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 15_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI but unreachable at ${POSTGRES_ADMIN_URL}: ${String(error)}`);
    return false;
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `gatehouse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
