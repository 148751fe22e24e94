/**
 * Push notifications as a second factor (src/domain/mfa/push.ts):
 *
 * - `mfa_authenticators` of type `push` keep the device Gatehouse sends to:
 *   `push_service` (`APNS` or `GCM`), its push token sealed with the master
 *   key (`push_token_enc`), and the public key (a JWK, `public_key`) whose
 *   signature answers each transaction;
 * - `mfa_challenges` of a push carry the state of their transaction
 *   (`status`: `pending`, `approved`, `denied`; null for the binding-code
 *   challenges of email and SMS), the SHA-256 of the transaction id the
 *   device names (`transaction_hash`: an enrolment transaction or a login
 *   transaction) and when the client last polled (`last_polled_at`, for
 *   `slow_down`).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mfa_authenticators').addColumn('push_service', 'text').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('push_token_enc', 'text').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('public_key', 'text').execute();
  await db.schema.alterTable('mfa_challenges').addColumn('status', 'text').execute();
  await db.schema.alterTable('mfa_challenges').addColumn('transaction_hash', 'text').execute();
  await db.schema.alterTable('mfa_challenges').addColumn('last_polled_at', 'text').execute();
  await db.schema.createIndex('mfa_challenges_transaction_uq').on('mfa_challenges').columns(['tenant_id', 'transaction_hash']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mfa_challenges_transaction_uq').execute();
  for (const column of ['last_polled_at', 'transaction_hash', 'status']) await db.schema.alterTable('mfa_challenges').dropColumn(column).execute();
  for (const column of ['public_key', 'push_token_enc', 'push_service']) await db.schema.alterTable('mfa_authenticators').dropColumn(column).execute();
}
