/**
 * POST /api/v2/users/{id}/multifactor/actions/invalidate-remember-browser:
 * a per-user epoch that the MFA "remember this browser" cookie's MAC
 * covers (src/authentication/mfa/remember-browser.ts), so raising it makes
 * every browser remembered before require the second factor again. A user
 * without a row is at epoch 0; the row goes with the user.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_remember_epochs')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mfa_remember_epochs_pk', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('mfa_remember_epochs_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mfa_remember_epochs').execute();
}
