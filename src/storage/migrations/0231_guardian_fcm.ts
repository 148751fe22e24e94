/**
 * The push-notification factor's Firebase Cloud Messaging providers: the
 * legacy `fcm` server key and the `fcmv1` service account key (JSON), each
 * sealed, in columns of their own beside APNs and SNS; null while not set.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guardian_push_notification').addColumn('fcm_server_key_enc', 'text').execute();
  await db.schema.alterTable('guardian_push_notification').addColumn('fcmv1_credentials_enc', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guardian_push_notification').dropColumn('fcmv1_credentials_enc').execute();
  await db.schema.alterTable('guardian_push_notification').dropColumn('fcm_server_key_enc').execute();
}
