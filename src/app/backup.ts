/**
 * `gatehouse backup --out FILE` and `gatehouse restore FILE [--force]`: the
 * SQLite database through its online backup API (src/storage/sqlite-backup.ts);
 * on PostgreSQL they name the database's own tools instead.
 */
import type { Config } from '../platform/config.js';
import { masterKeySource } from '../platform/crypto/master-key.js';
import { backupSqlite, BackupError, restoreSqlite } from '../storage/sqlite-backup.js';

export { BackupError };

const POSTGRES_ADVICE =
  'this Gatehouse uses PostgreSQL (DATABASE_URL): back it up with pg_dump (e.g. pg_dump --format=custom --file=gatehouse.dump "$DATABASE_URL") ' +
  'and restore it with pg_restore into a new database; see "Backup and restore" in the README';

/** Where the master key is kept, said after a backup and a restore: a backup is useless without it. */
function masterKeyReminder(config: Config): string {
  return `The master key is not in the backup: keep ${masterKeySource(config.masterKey, config.dataDir)} with it, apart from it (without that key the sealed secrets in the backup cannot be opened).`;
}

export async function backupCommand(config: Config, args: string[]): Promise<number> {
  if (config.databaseUrl && !/^(sqlite|file):/.test(config.databaseUrl)) throw new BackupError(POSTGRES_ADVICE);
  const index = args.indexOf('--out');
  const out = index >= 0 ? args[index + 1] : undefined;
  if (!out || out.startsWith('--')) throw new BackupError('usage: gatehouse backup --out <file>');
  const bytes = await backupSqlite(config.sqliteFile, out);
  console.log(`Backed up ${config.sqliteFile} to ${out} (${bytes} bytes).`);
  console.log(masterKeyReminder(config));
  return 0;
}

export async function restoreCommand(config: Config, args: string[]): Promise<number> {
  if (config.databaseUrl && !/^(sqlite|file):/.test(config.databaseUrl)) throw new BackupError(POSTGRES_ADVICE);
  const file = args.find((arg) => !arg.startsWith('--'));
  const unknown = args.filter((arg) => arg.startsWith('--') && arg !== '--force');
  if (!file || unknown.length > 0) throw new BackupError('usage: gatehouse restore <file> [--force]');
  await restoreSqlite(file, config.sqliteFile, { force: args.includes('--force') });
  console.log(`Restored ${file} into ${config.sqliteFile}. Start Gatehouse with the master key of the backed-up installation.`);
  console.log(masterKeyReminder(config));
  return 0;
}
