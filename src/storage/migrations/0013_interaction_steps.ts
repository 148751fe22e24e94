/**
 * The hosted pages as interaction steps (src/authentication/interaction):
 * a waiting /authorize request remembers which steps the user completed in
 * it, and the session its login step started, so that a later page of the
 * same request neither asks again for what was done nor accepts a login that
 * was not done in it (a `prompt=login` or `max_age` request must be answered
 * from the login it asked for, not from an older session of the browser).
 *
 * - `completed_steps`: a JSON array of step names, `[]` when none;
 * - `session_hash`: the `id_hash` of the session the request's login step
 *   started; null until then.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').addColumn('completed_steps', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('authorization_requests').addColumn('session_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').dropColumn('session_hash').execute();
  await db.schema.alterTable('authorization_requests').dropColumn('completed_steps').execute();
}
