/**
 * Custom domains (`/api/v2/custom-domains`): alias hosts of a tenant. A
 * domain is unique across tenants (lower case). `status` is
 * `pending_verification` until its DNS TXT record is found, then `ready`:
 * only ready domains serve requests. `self_managed_certs` domains get a
 * `cname_api_key` at their first verification, which the customer's edge
 * sends as `cname-api-key`; only its SHA-256 is kept.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_domains')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verification_record', 'text', (c) => c.notNull())
    .addColumn('edge_key_hash', 'text')
    .addColumn('custom_client_ip_header', 'text')
    .addColumn('tls_policy', 'text', (c) => c.notNull())
    .addColumn('domain_metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_domains_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('custom_domains_domain_uq').on('custom_domains').column('domain').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_domains').execute();
}
