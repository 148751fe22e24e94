/**
 * What the post-login actions changed in the tokens of a login (custom
 * claims of both tokens, scopes added and removed) is decided before the
 * authorization code is issued and applied when it is redeemed: it is kept
 * with the code, as JSON (src/domain/actions-runtime/triggers/post-login.ts
 * `TokenChanges`); null when no action changed anything.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').addColumn('action_changes', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').dropColumn('action_changes').execute();
}
