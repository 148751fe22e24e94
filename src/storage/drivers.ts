/**
 * The database drivers, each loaded on first use (platform/lazy.ts): only the
 * driver of the database in use is loaded, by the start-up probe
 * (./probe.ts) and by ./database.ts alike.
 */
import type SQLiteModule from 'better-sqlite3';
import type PgModule from 'pg';
import { lazyModule } from '../platform/lazy.js';

export const pg = lazyModule<typeof PgModule>('pg');
export const SQLite = lazyModule<typeof SQLiteModule>('better-sqlite3');
