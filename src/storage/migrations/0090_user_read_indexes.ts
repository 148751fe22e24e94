/**
 * User reads whose cost must not grow with the tenant (GET /users/{id},
 * users-by-email, `q=email:…`, the list pages):
 *
 * - `users_linked_idx` becomes partial (`where linked_to is not null`). As a
 *   full index it was the planner's pick for `linked_to is null`, which every
 *   read of users has and which nearly every row meets: `q=email:"…"` then
 *   walked the whole tenant instead of `users_email_lower_idx`. Linked rows
 *   are few; the lookups of a primary's identities (`linked_to = ?` / `in`)
 *   imply the index's condition and still use it, on SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_linked_idx').execute();
  await sql`create index users_linked_idx on users (tenant_id, linked_to) where linked_to is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_linked_idx').execute();
  await db.schema.createIndex('users_linked_idx').on('users').columns(['tenant_id', 'linked_to']).execute();
}
