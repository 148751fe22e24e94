import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeMasterKey } from '../config.js';

/**
 * The master key comes from GATEHOUSE_MASTER_KEY, else from `<data dir>/master.key`,
 * which is created (mode 0600) on first start. Losing it makes every sealed
 * secret unreadable, so an existing file is never overwritten.
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) {
    const key = decodeMasterKey(configured);
    if (!key) throw new Error('GATEHOUSE_MASTER_KEY is not a 32-byte key');
    return key;
  }
  const file = path.join(dataDir, 'master.key');
  if (fs.existsSync(file)) {
    const key = decodeMasterKey(fs.readFileSync(file, 'utf8').trim());
    if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex characters)`);
    return key;
  }
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
