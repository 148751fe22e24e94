/**
 * The SMS factor's provider and templates, per tenant: the Twilio account
 * (sid, sender, messaging service; the auth token sealed with the master key
 * in a column of its own) and the enrolment and verification messages.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardian_sms')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    /** JSON {sid, from, messaging_service_sid} or null when never configured. */
    .addColumn('twilio', 'text')
    .addColumn('twilio_auth_token_enc', 'text')
    /** JSON {enrollment_message, verification_message} or null for the defaults. */
    .addColumn('templates', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('guardian_sms').execute();
}
