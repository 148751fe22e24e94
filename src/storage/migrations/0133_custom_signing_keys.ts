/**
 * Custom signing keys (PUT/GET/DELETE /api/v2/keys/custom-signing): the public
 * keys (a JWKS) a tenant publishes beside its own in /.well-known/jwks.json.
 * One row per tenant; public keys, stored in the clear.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_signing_keys')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    /** `{"keys": [...]}` as the tenant sent it (checked and with every `kid` set). */
    .addColumn('jwks', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_signing_keys').execute();
}
