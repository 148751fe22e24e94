/**
 * The tenant encryption key hierarchy (src/domain/encryption/, /api/v2/keys/encryption):
 * per tenant, its customer-provided root key (when it brings one), its master
 * keys and its encryption keys, each wrapped under its parent (the environment
 * root key is the configured master key and is not stored). A sealed value
 * names the encryption key it was sealed under (`v2.<kid>.…`); values from
 * before this table (`v1.…`) are sealed under the environment root key.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encryption_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kid', 'text', (c) => c.notNull())
    /** customer-provided-root-key, tenant-master-key or tenant-encryption-key. */
    .addColumn('type', 'text', (c) => c.notNull())
    /** pre-activation, active, deactivated or destroyed. */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('parent_kid', 'text')
    /** The key material wrapped under its parent (AES-256-GCM); null when destroyed or not imported yet. */
    .addColumn('wrapped_key', 'text')
    /** An import in progress: the wrapping key's private half, wrapped under the environment root key. */
    .addColumn('wrapping_key_enc', 'text')
    .addColumn('public_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('encryption_keys_pk', ['tenant_id', 'kid'])
    .execute();
  await db.schema.createIndex('encryption_keys_state_idx').on('encryption_keys').columns(['state', 'tenant_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('encryption_keys').execute();
}
