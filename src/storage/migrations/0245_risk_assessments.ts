/**
 * Risk assessment's new-device assessor (/api/v2/risk-assessments/*):
 *
 * - `known_devices`: the devices a user logged in from through the hosted
 *   login, by the SHA-256 of the device cookie (`__Host-gh_device`) and of
 *   the user agent; a device is forgotten at `expires_at` (its last login
 *   plus the tenant's `remember_for` days), when the user's assessors are
 *   cleared, or when the user goes (cascading foreign key).
 * - `login_risk_assessments`: the assessment of the login that started a
 *   session, read by the post-login Actions of the logins it answers
 *   (`event.authentication.riskAssessment`); it goes with its session.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_devices')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('device_hash', 'text', (c) => c.notNull())
    .addColumn('user_agent_hash', 'text')
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_devices_pk', ['tenant_id', 'user_id', 'device_hash'])
    .addForeignKeyConstraint('known_devices_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('known_devices_expiry_idx').on('known_devices').columns(['expires_at']).execute();

  await db.schema
    .createTable('login_risk_assessments')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('session_id_hash', idType(db), (c) => c.notNull())
    .addColumn('assessment', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_risk_assessments_pk', ['tenant_id', 'session_id_hash'])
    .addForeignKeyConstraint('login_risk_assessments_session_fk', ['tenant_id', 'session_id_hash'], 'sessions', ['tenant_id', 'id_hash'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_risk_assessments').execute();
  await db.schema.dropTable('known_devices').execute();
}
