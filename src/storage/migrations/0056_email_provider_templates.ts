/**
 * The tenant's mail (`/api/v2/emails/provider`, `/api/v2/email-templates`):
 *
 * - `email_providers`: one per tenant; the SMTP credentials (host, port,
 *   user and password) sealed together under the master key, so the password
 *   is never stored in the clear; `settings` as JSON;
 * - `email_templates`: one row per tenant and template name, the Liquid
 *   body, subject and sender, and the link settings (`resultUrl`,
 *   `urlLifetimeInSeconds`, `includeEmailInRedirect`).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_providers')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('default_from_address', 'text')
    .addColumn('credentials_enc', 'text', (c) => c.notNull())
    .addColumn('settings', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('email_templates')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('from', 'text')
    .addColumn('subject', 'text')
    .addColumn('syntax', 'text')
    .addColumn('result_url', 'text')
    .addColumn('url_lifetime_in_seconds', 'integer')
    .addColumn('include_email_in_redirect', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_templates_pk', ['tenant_id', 'template'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_templates').execute();
  await db.schema.dropTable('email_providers').execute();
}
