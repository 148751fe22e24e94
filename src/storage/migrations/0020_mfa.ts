/**
 * Multi-factor authentication (src/domain/mfa):
 *
 * - `guardian_factors`: whether each factor is enabled, per tenant (absent:
 *   disabled). The push-notification factor's `enabled`, kept until now on
 *   `guardian_push_notification`, is copied here and read from here only.
 * - `guardian_policies`: the tenant's MFA policies (a JSON array of
 *   `all-applications`, `confidence-score`; absent: none).
 * - `mfa_authenticators`: users' enrolments. A TOTP secret is sealed with
 *   the master key; a recovery code is kept as its SHA-256 only.
 * - `mfa_challenges`: out-of-band challenges (email, SMS): the `oob_code`
 *   and the binding code sent to the user, both as SHA-256, single use.
 * - `mfa_failures`: consecutive wrong second-factor codes per user, in a
 *   window (the block of five wrong codes).
 * - `sessions.amr`, `authorization_codes.amr`: the authentication methods a
 *   login used (space-separated, e.g. `pwd mfa`), for the ID token's `amr`.
 */
import { sql, type Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardian_factors')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guardian_factors_pk', ['tenant_id', 'name'])
    .execute();
  await sql`insert into guardian_factors (tenant_id, name, enabled, updated_at)
    select tenant_id, 'push-notification', enabled, updated_at from guardian_push_notification`.execute(db);

  await db.schema
    .createTable('guardian_policies')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('policies', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mfa_authenticators')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('secret_enc', 'text')
    .addColumn('code_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('enrolled_at', 'text')
    .addColumn('last_auth_at', 'text')
    .addPrimaryKeyConstraint('mfa_authenticators_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('mfa_authenticators_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('mfa_authenticators_user_idx').on('mfa_authenticators').columns(['tenant_id', 'user_id']).execute();

  await db.schema
    .createTable('mfa_challenges')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('oob_hash', 'text', (c) => c.notNull())
    .addColumn('authenticator_id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('binding_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('mfa_challenges_pk', ['tenant_id', 'oob_hash'])
    .addForeignKeyConstraint('mfa_challenges_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('mfa_challenges_expires_idx').on('mfa_challenges').column('expires_at').execute();

  await db.schema
    .createTable('mfa_failures')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mfa_failures_pk', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('mfa_failures_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema.alterTable('sessions').addColumn('amr', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('amr', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').dropColumn('amr').execute();
  await db.schema.alterTable('sessions').dropColumn('amr').execute();
  await db.schema.dropTable('mfa_failures').execute();
  await db.schema.dropTable('mfa_challenges').execute();
  await db.schema.dropTable('mfa_authenticators').execute();
  await db.schema.dropTable('guardian_policies').execute();
  await db.schema.dropTable('guardian_factors').execute();
}
