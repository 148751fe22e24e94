/**
 * Account linking (POST/DELETE /api/v2/users/{id}/identities): a linked
 * user's row stays where it was, with its connection, credentials and
 * profile, and `linked_to` names the primary user it is now an identity of.
 * Such a row is no user of its own (lookups by user id, lists and searches
 * skip it); a login through its connection finds it by its email, username
 * or phone number as before and answers for the primary. The unique indexes
 * of the connection still hold for it, so its email stays taken there.
 * `users_linked_idx`: a primary's identities, and the search of a connection
 * through them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('linked_to', 'text').execute();
  await db.schema.createIndex('users_linked_idx').on('users').columns(['tenant_id', 'linked_to']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_linked_idx').execute();
  await db.schema.alterTable('users').dropColumn('linked_to').execute();
}
