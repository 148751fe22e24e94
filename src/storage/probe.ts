/**
 * The start-up look at the database, before anything is created or written
 * (src/app/preflight.ts): is it reachable, and one secret sealed in it (a
 * client secret) to try the master key on. An SQLite file that does not exist
 * yet is not created here; one that exists is opened without changing its
 * settings and closed again.
 */
import fs from 'node:fs';
import { SQLite, pg } from './drivers.js';

/**
 * A value sealed or wrapped directly under the master key (the environment
 * root key): a `v1` client secret, or else a key of the encryption key
 * hierarchy that the root key wraps (migration 0200).
 */
export interface SealedSample {
  kind: 'client_secret' | 'tenant-master-key' | 'customer-provided-root-key';
  tenantId: string;
  /** The client id, or the key's kid. */
  id: string;
  sealed: string;
}

export interface DatabaseProbe {
  /** False for an SQLite file that does not exist yet (a first start). */
  exists: boolean;
  /** A value sealed under the master key when the database holds one. */
  sample: SealedSample | undefined;
}

const SAMPLE_SQL = "select 'client_secret' as kind, tenant_id, client_id as id, client_secret_enc as sealed from clients where client_secret_enc like 'v1.%' limit 1";
/** A root key of the tenant's own, or a master key that the environment root key wraps (its parent is no stored key). */
const KEY_SAMPLE_SQL =
  "select type as kind, tenant_id, kid as id, wrapped_key as sealed from encryption_keys where wrapped_key is not null and (type = 'customer-provided-root-key' or (type = 'tenant-master-key' and parent_kid not in (select kid from encryption_keys))) limit 1";

type SampleRow = { kind: SealedSample['kind']; tenant_id: string; id: string; sealed: string };

const toSample = (row: SampleRow | undefined): SealedSample | undefined => (row ? { kind: row.kind, tenantId: row.tenant_id, id: row.id, sealed: row.sealed } : undefined);

/** The first query's sample, else the second's; a table that does not exist yet holds none. */
async function firstSample(query: (sql: string) => Promise<SampleRow | undefined>): Promise<SealedSample | undefined> {
  for (const sql of [SAMPLE_SQL, KEY_SAMPLE_SQL]) {
    try {
      const sample = toSample(await query(sql));
      if (sample) return sample;
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
  }
  return undefined;
}

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
    return { exists: true, sample: await firstSample(async (sql) => (await client.query<SampleRow>(sql)).rows[0]) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeSqlite(file: string): Promise<DatabaseProbe> {
  if (!fs.existsSync(file)) return { exists: false, sample: undefined };
  const sqlite = new (SQLite())(file, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    return { exists: true, sample: await firstSample(async (sql) => sqlite.prepare(sql).get() as SampleRow | undefined) };
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
