/**
 * Signing key rotation (GET/POST /api/v2/keys/signing…): a key's status is
 * `next` (published, not yet signing), `current` (signs), `previous` (signed
 * before the last rotation, still verifies) or `revoked` (neither published
 * nor verifying); the dates the service shows with them. The current keys of
 * existing tenants have been current since they were made.
 * Migrations are immutable once released: change the schema in a new file.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signing_keys').addColumn('current_since', 'text').execute();
  await db.schema.alterTable('signing_keys').addColumn('current_until', 'text').execute();
  await db.schema.alterTable('signing_keys').addColumn('revoked_at', 'text').execute();
  await sql`update signing_keys set current_since = created_at where status = 'current'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signing_keys').dropColumn('revoked_at').execute();
  await db.schema.alterTable('signing_keys').dropColumn('current_until').execute();
  await db.schema.alterTable('signing_keys').dropColumn('current_since').execute();
}
