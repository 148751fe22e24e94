/**
 * A login that a post-login action sent away (`api.redirect.sendUserTo`) is
 * suspended on its waiting authorization request until the browser comes
 * back to `/continue`:
 *
 * - `continue_hash`: the SHA-256 of the one-use nonce sealed into the
 *   `state` the browser carries away; cleared (one conditional UPDATE) by the
 *   `/continue` that resumes the login, so a state is spent once;
 * - `action_suspension`: JSON, the actions' outcome so far and which action
 *   redirected (src/authentication/actions/continue.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').addColumn('continue_hash', 'text').execute();
  await db.schema.alterTable('authorization_requests').addColumn('action_suspension', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').dropColumn('action_suspension').execute();
  await db.schema.alterTable('authorization_requests').dropColumn('continue_hash').execute();
}
