/**
 * The tenant's default custom domain (PATCH /api/v2/custom-domains/default):
 * the one ready custom domain whose `is_default` is 1, the host of the links
 * Gatehouse sends (tickets, verification and reset mails) when no request
 * names another; null or 0 elsewhere, and on every row while the canonical
 * domain is the default.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('custom_domains').addColumn('is_default', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('custom_domains').dropColumn('is_default').execute();
}
