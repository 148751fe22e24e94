/**
 * `show_as_button` of enterprise connections (the service's
 * `ConnectionShowAsButton`: whether the login page shows a button for the
 * connection, else it is reached only by home realm discovery); null while
 * never set, which reads as false.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').addColumn('show_as_button', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').dropColumn('show_as_button').execute();
}
