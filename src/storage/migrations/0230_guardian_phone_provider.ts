/**
 * The phone factor's selected provider (`auth0`, `twilio` or
 * `phone-message-hook`: the service's GuardianFactorsProviderSmsProviderEnum)
 * and its message types (JSON array of `sms` / `voice`), beside the Twilio
 * settings and templates of the same row; null while never set, which reads
 * as `auth0` and `["sms"]`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guardian_sms').addColumn('selected_provider', 'text').execute();
  await db.schema.alterTable('guardian_sms').addColumn('message_types', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guardian_sms').dropColumn('message_types').execute();
  await db.schema.alterTable('guardian_sms').dropColumn('selected_provider').execute();
}
