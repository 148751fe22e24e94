/**
 * Tickets made through the Management API (POST /api/v2/tickets/password-change
 * and /tickets/email-verification) carry what happens once they are used:
 * `result_url` (where the page sends the browser), `mark_email_verified` (a
 * password change also verifies the address; NULL for emailed tickets, which
 * always do) and `include_email` (the address is added to result_url).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tickets').addColumn('result_url', 'text').execute();
  await db.schema.alterTable('tickets').addColumn('mark_email_verified', 'integer').execute();
  await db.schema.alterTable('tickets').addColumn('include_email', 'integer').execute();
}
