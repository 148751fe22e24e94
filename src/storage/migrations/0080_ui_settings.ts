/**
 * What the hosted pages look like and say, per tenant: one row per setting,
 * `kind` naming it (`branding`: GET/PATCH /api/v2/branding; `prompts`:
 * GET/PATCH /api/v2/prompts; `custom_text`: one prompt's texts in one
 * language, `key` = `<prompt>/<language>`), `value` its JSON document
 * (bounded by the Management API before it is stored).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ui_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ui_settings_pk', ['tenant_id', 'kind', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ui_settings').execute();
}
