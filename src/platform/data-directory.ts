/**
 * The data directory holds the master key, the SQLite database (sealed
 * secrets, password hashes), the TLS private key, the admin credentials and
 * the mail outbox: nothing in it is for any user but the server's own.
 *
 * `secureDataDirectory` creates the directory with mode 0700 and the SQLite
 * file with 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm`
 * files the database file's mode). A directory or file already there with
 * group or other bits (an older version created the database 0644) is
 * tightened; the lines returned say what was changed, for the start-up log.
 * Public files (`cert.pem`, the certificate) keep their mode.
 */
import fs from 'node:fs';
import path from 'node:path';

const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;

function isPublic(file: string): boolean {
  return path.basename(file) === 'cert.pem';
}

function tighten(target: string, mode: number, changed: string[]): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch {
    return; // not there (yet)
  }
  if (stat.isSymbolicLink() || (stat.mode & 0o077) === 0) return;
  try {
    fs.chmodSync(target, mode);
    changed.push(`tightened the permissions of ${target} from ${(stat.mode & 0o777).toString(8).padStart(4, '0')} to ${mode.toString(8).padStart(4, '0')}`);
  } catch (error) {
    changed.push(`could not tighten the permissions of ${target} (${(error as NodeJS.ErrnoException).code ?? String(error)}): make it readable by the server's user only`);
  }
}

/** The files directly in `dir` and in its immediate subdirectories (tls/). */
function filesOf(dir: string): { directories: string[]; files: string[] } {
  const directories: string[] = [];
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile()) files.push(full);
    else if (entry.isDirectory()) {
      directories.push(full);
      for (const inner of fs.readdirSync(full, { withFileTypes: true })) if (inner.isFile()) files.push(path.join(full, inner.name));
    }
  }
  return { directories, files };
}

export function secureDataDirectory(dataDir: string, sqliteFile?: string): string[] {
  const changed: string[] = [];
  fs.mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
  tighten(dataDir, DIRECTORY_MODE, changed);
  const { directories, files } = filesOf(dataDir);
  for (const directory of directories) tighten(directory, DIRECTORY_MODE, changed);
  for (const file of files) if (!isPublic(file)) tighten(file, FILE_MODE, changed);
  if (sqliteFile !== undefined && sqliteFile !== ':memory:') {
    fs.mkdirSync(path.dirname(sqliteFile), { recursive: true, mode: DIRECTORY_MODE });
    // Created empty with 0600 (an empty file is an empty SQLite database); never truncates one.
    fs.closeSync(fs.openSync(sqliteFile, 'a', FILE_MODE));
    for (const file of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) tighten(file, FILE_MODE, changed);
  }
  return changed;
}
