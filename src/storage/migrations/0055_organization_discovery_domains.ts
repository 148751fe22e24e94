/**
 * Organization discovery domains (`/organizations/{id}/discovery-domains`):
 * the email domains by which the pre-login organization prompt finds an
 * organization. A domain is listed once per organization, and verified for
 * one organization of the tenant at most (a partial unique index: two
 * organizations may both have it pending, only one verified), so an email
 * address leads to exactly one organization.
 */
import { sql, type Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_discovery_domains')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    /** Lower case. */
    .addColumn('domain', 'text', (c) => c.notNull())
    /** `pending` or `verified`. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('use_for_organization_discovery', 'integer', (c) => c.notNull())
    .addColumn('verification_txt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_discovery_domains_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('organization_discovery_domains_organization_fk', ['tenant_id', 'organization_id'], 'organizations', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('organization_discovery_domains_domain_uq')
    .on('organization_discovery_domains')
    .columns(['tenant_id', 'organization_id', 'domain'])
    .unique()
    .execute();
  await db.schema
    .createIndex('organization_discovery_domains_verified_uq')
    .on('organization_discovery_domains')
    .columns(['tenant_id', 'domain'])
    .unique()
    .where(sql.ref('status'), '=', 'verified')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organization_discovery_domains').execute();
}
