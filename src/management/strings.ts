/**
 * A pattern for strings that reach the database as keys (ids, API
 * identifiers, permission names): no control characters. PostgreSQL text
 * cannot hold NUL, so such a string would fail the query (a 500) instead of
 * naming nothing; no id or name the service issues contains any of them.
 */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';
