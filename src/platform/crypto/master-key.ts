import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeMasterKey } from '../config.js';

/** Where the master key comes from: GATEHOUSE_MASTER_KEY, or the key file. */
export function masterKeySource(configured: string | undefined, dataDir: string): string {
  return configured !== undefined ? 'GATEHOUSE_MASTER_KEY' : path.join(dataDir, 'master.key');
}

/**
 * The master key as configured, without creating anything: undefined when
 * neither GATEHOUSE_MASTER_KEY nor the key file exists yet (a first start).
 * Throws, naming the variable or the file, when it is not a 32-byte key.
 */
export function existingMasterKey(configured: string | undefined, dataDir: string): Buffer | undefined {
  if (configured !== undefined) {
    const key = decodeMasterKey(configured);
    if (!key) throw new Error('GATEHOUSE_MASTER_KEY is not a 32-byte key');
    return key;
  }
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) return undefined;
  const key = decodeMasterKey(fs.readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex characters)`);
  return key;
}

/**
 * The master key comes from GATEHOUSE_MASTER_KEY, else from `<data dir>/master.key`,
 * which is created (mode 0600) on first start. Losing it makes every sealed
 * secret unreadable, so an existing file is never overwritten.
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  const existing = existingMasterKey(configured, dataDir);
  if (existing) return existing;
  const file = path.join(dataDir, 'master.key');
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process created the file meanwhile; then use theirs.
  try {
    fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return loadMasterKey(undefined, dataDir);
  }
}
