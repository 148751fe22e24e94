/**
 * The push-notification factor of MFA, per tenant: whether it is enabled, the
 * selected provider, and the APNs and SNS provider settings. The APNs p12 and
 * both AWS keys are sealed with the master key (src/domain/guardian/model.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardian_push_notification')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('selected_provider', 'text', (c) => c.notNull().defaultTo('guardian'))
    /** JSON {sandbox?, bundle_id?} or null when APNs was never configured. */
    .addColumn('apns', 'text')
    .addColumn('apns_p12_enc', 'text')
    /**
     * JSON of the SNS fields but the secret key, or null when SNS was never
     * configured. The access key id in it is sealed too (`aws_access_key_id_enc`):
     * the spec marks it "credential, treat as secret".
     */
    .addColumn('sns', 'text')
    .addColumn('sns_secret_access_key_enc', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('guardian_push_notification').execute();
}
