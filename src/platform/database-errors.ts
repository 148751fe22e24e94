/**
 * Recognising the two database errors the code above storage acts on, from
 * the error codes of both drivers (better-sqlite3's SQLITE_CONSTRAINT_*,
 * PostgreSQL's SQLSTATE): a store's contract says which of its writes fail
 * with which, and its caller turns that into the API's answer (409, 404).
 */

/** True when the error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

/** True when the error is a foreign-key violation, on either database. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e?.code === '23503';
}
