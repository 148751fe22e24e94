/**
 * The Duo factor's settings (/api/v2/guardian/factors/duo/settings): one row
 * per tenant, the integration key and API host in clear, the secret key
 * sealed (src/domain/guardian/duo.ts); null members were never set.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardian_duo')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('ikey', 'text')
    .addColumn('host', 'text')
    .addColumn('skey_enc', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('guardian_duo').execute();
}
