/**
 * A self-service profile may name a user attribute profile (the document's
 * `user_attribute_profile_id`); null when it names none. Deleting a user
 * attribute profile a self-service profile names is refused by the service.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('self_service_profiles').addColumn('user_attribute_profile_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('self_service_profiles').dropColumn('user_attribute_profile_id').execute();
}
