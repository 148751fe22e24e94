/**
 * DPoP binding of the artefacts that outlive a request (RFC 9449 §5, §10):
 * an authorization code whose request named `dpop_jkt` (or was pushed with a
 * proof) is redeemed only with a proof by that key, and a public client's
 * refresh tokens are bound to the key they were issued with. Null: unbound.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').addColumn('dpop_jkt', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('dpop_jkt', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('dpop_jkt').execute();
  await db.schema.alterTable('authorization_codes').dropColumn('dpop_jkt').execute();
}
