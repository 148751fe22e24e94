/**
 * Idle session lifetimes (the tenant settings' `idle_session_lifetime`):
 * when a session last answered a login. Null until its first use after the
 * login that created it (`created_at` stands for it then).
 * Migrations are immutable once released: change the schema in a new file.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('last_interacted_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('last_interacted_at').execute();
}
