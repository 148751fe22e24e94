/**
 * The tenant's CAPTCHA configuration (/api/v2/attack-protection/captcha):
 * one row per tenant once it was set. `active_provider_id` names the
 * provider the hosted pages show; `providers` (JSON text) holds each
 * provider's readable members (site keys and the like); `secrets_enc` the
 * providers' secrets (`secret`, reCAPTCHA Enterprise's `api_key`) as one
 * sealed JSON object (src/domain/attack-protection/captcha.ts), never returned.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull().primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('active_provider_id', 'text', (c) => c.notNull())
    .addColumn('providers', 'text', (c) => c.notNull())
    .addColumn('secrets_enc', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('captcha_settings').execute();
}
