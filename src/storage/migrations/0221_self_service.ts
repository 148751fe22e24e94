/**
 * Self-service SSO (`/self-service-profiles`, their `sso-ticket`s, and the
 * hosted page a ticket opens): the profiles, and the tickets kept as the
 * SHA-256 of their secret only, single use (`used_at`), revocable
 * (`revoked_at`) and expiring; they go with their profile.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('self_service_profiles')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    /** JSON: `{logo_url?, colors?}` or null. */
    .addColumn('branding', 'text')
    /** JSON: the strategies the page offers. */
    .addColumn('allowed_strategies', 'text', (c) => c.notNull())
    /** JSON: `[{name, description, is_optional}]`. */
    .addColumn('user_attributes', 'text', (c) => c.notNull())
    /** JSON: `{language: {page: {key: text}}}`. */
    .addColumn('custom_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('self_service_profiles_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('self_service_profiles_tenant_fk', ['tenant_id'], 'tenants', ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('self_service_profiles_created_idx').on('self_service_profiles').columns(['tenant_id', 'created_at', 'id']).execute();
  await db.schema
    .createTable('sso_tickets')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    /** base64url SHA-256 of the ticket (the `ticket` of its URL, also the id its revocation names). */
    .addColumn('id_hash', 'text', (c) => c.notNull())
    .addColumn('profile_id', idType(db), (c) => c.notNull())
    /** JSON: what the ticket's request asked for (connection_config, enabled_clients, enabled_organizations …). */
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('connection_id', idType(db))
    .addPrimaryKeyConstraint('sso_tickets_pk', ['tenant_id', 'id_hash'])
    .addForeignKeyConstraint('sso_tickets_profile_fk', ['tenant_id', 'profile_id'], 'self_service_profiles', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('sso_tickets_profile_idx').on('sso_tickets').columns(['tenant_id', 'profile_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_tickets').execute();
  await db.schema.dropTable('self_service_profiles').execute();
}
