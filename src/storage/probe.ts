/**
 * The start-up look at the database, before anything is created or written
 * (src/app/preflight.ts): is it reachable, and one secret sealed in it (a
 * client secret) to try the master key on. An SQLite file that does not exist
 * yet is not created here; one that exists is opened without changing its
 * settings and closed again.
 */
import fs from 'node:fs';
import { SQLite, pg } from './drivers.js';

export interface SealedSample {
  tenantId: string;
  clientId: string;
  sealed: string;
}

export interface DatabaseProbe {
  /** False for an SQLite file that does not exist yet (a first start). */
  exists: boolean;
  /** A sealed client secret when the database holds one. */
  sample: SealedSample | undefined;
}

const SAMPLE_SQL = 'select tenant_id, client_id, client_secret_enc from clients where client_secret_enc is not null limit 1';

interface SampleRow {
  tenant_id: string;
  client_id: string;
  client_secret_enc: string;
}

const toSample = (row: SampleRow | undefined): SealedSample | undefined =>
  row ? { tenantId: row.tenant_id, clientId: row.client_id, sealed: row.client_secret_enc } : undefined;

/** True for "no such table" on either database: a database not migrated yet holds no secrets. */
function isMissingTable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '42P01' || /no such table/.test(message ?? '');
}

async function probePostgres(url: string): Promise<DatabaseProbe> {
  const client = new (pg().Client)({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select 1');
    try {
      return { exists: true, sample: toSample((await client.query<SampleRow>(SAMPLE_SQL)).rows[0]) };
    } catch (error) {
      if (isMissingTable(error)) return { exists: true, sample: undefined };
      throw error;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

function probeSqlite(file: string): DatabaseProbe {
  if (!fs.existsSync(file)) return { exists: false, sample: undefined };
  const sqlite = new (SQLite())(file, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    try {
      return { exists: true, sample: toSample(sqlite.prepare(SAMPLE_SQL).get() as SampleRow | undefined) };
    } catch (error) {
      if (isMissingTable(error)) return { exists: true, sample: undefined };
      throw error;
    }
  } finally {
    sqlite.close();
  }
}

/** Rejects when the database cannot be reached or read. */
export async function probeDatabase(options: { databaseUrl: string | undefined; sqliteFile: string }): Promise<DatabaseProbe> {
  return options.databaseUrl ? probePostgres(options.databaseUrl) : probeSqlite(options.sqliteFile);
}

/** The database's name for files kept per database (admin-credentials): `sqlite:<file>` or `postgres://host:port/name`, never credentials. */
export function databaseIdentity(options: { databaseUrl: string | undefined; sqliteFile: string }): string {
  if (!options.databaseUrl) return `sqlite:${options.sqliteFile}`;
  const url = new URL(options.databaseUrl);
  return `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
