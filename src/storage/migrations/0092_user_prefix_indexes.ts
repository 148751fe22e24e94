/**
 * Prefix and exact searches of the text fields of users (`q=name:jan*`,
 * `q=nickname:"jane"`, email, given_name, family_name, username) read an index
 * instead of walking the tenant: one partial index per field on the
 * lower-cased value (src/storage/kysely/user-search.ts compares `lower(field)`
 * and names `field is not null`, the index's condition). A prefix is a range
 * `>= prefix and < the prefix's successor`, which an index serves only in the
 * byte order of the text: SQLite compares text that way (BINARY), and on
 * PostgreSQL the indexed expressions carry `collate "C"` (the database's own
 * collation may order `ab-c` next to `abc`). SQLite's prefix search of email
 * uses `users_email_lower_idx`; PostgreSQL's needs its own C-ordered one.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const FIELDS = ['name', 'nickname', 'given_name', 'family_name', 'username'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const field of FIELDS) {
    const column = sql.ref(field);
    const key = postgres ? sql`(lower(${column}) collate "C")` : sql`lower(${column})`;
    await sql`create index ${sql.id(`users_${field}_prefix_idx`)} on users (tenant_id, ${key}) where ${column} is not null`.execute(db);
  }
  if (postgres) await sql`create index users_email_prefix_idx on users (tenant_id, (email_lower collate "C")) where email_lower is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const field of FIELDS) await db.schema.dropIndex(`users_${field}_prefix_idx`).ifExists().execute();
  await db.schema.dropIndex('users_email_prefix_idx').ifExists().execute();
}
