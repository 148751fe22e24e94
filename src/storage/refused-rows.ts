/**
 * Whether a failed write's error says the rows are at fault rather than the
 * database: a constraint they break or a value a column does not take. Such
 * a write fails again however often it is tried; any other error (the
 * database down, busy, out of connections or space) may pass. Read from the
 * drivers' codes, never their messages' values (a message may quote a row).
 *
 * - PostgreSQL (SQLSTATE, appendix A of its manual): class 22 (data
 *   exception), 23 (integrity constraint violation), 54 (program limit
 *   exceeded: a value too large);
 * - SQLite (better-sqlite3's `SqliteError.code`): SQLITE_CONSTRAINT_*,
 *   SQLITE_MISMATCH, SQLITE_TOOBIG, SQLITE_RANGE; and the driver's own
 *   refusal of a value it cannot bind (a TypeError before SQLite sees it).
 */
const POSTGRES_ROW_CLASSES = new Set(['22', '23', '54']);
const SQLITE_ROW_CODES = new Set(['SQLITE_MISMATCH', 'SQLITE_TOOBIG', 'SQLITE_RANGE']);

/** When the error says the rows are at fault, what of it may be logged (its code and the schema names it gives, never a value); otherwise undefined. */
export function rowRefusal(error: unknown): Record<string, string> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  const refused =
    typeof code === 'string'
      ? code.startsWith('SQLITE_')
        ? code.startsWith('SQLITE_CONSTRAINT') || SQLITE_ROW_CODES.has(code)
        : /^[0-9A-Z]{5}$/.test(code) && POSTGRES_ROW_CLASSES.has(code.slice(0, 2))
      : error instanceof TypeError && error.message.startsWith('SQLite3 can only bind');
  if (!refused) return undefined;
  const out: Record<string, string> = { code: typeof code === 'string' ? code : error.constructor.name };
  for (const name of ['table', 'column', 'constraint'] as const) {
    const value = (error as Record<string, unknown>)[name];
    if (typeof value === 'string') out[name] = value.slice(0, 128);
  }
  return out;
}
