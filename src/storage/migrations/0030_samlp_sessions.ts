/**
 * The SAML service providers each SSO session answered (the `samlp` addon,
 * src/authentication/samlp/): for single logout, which SPs to tell, with the
 * NameID and SessionIndex each was given (SAML Core §3.7.1: a LogoutRequest
 * names the principal and the session as the SP knows them). One row per
 * session and client, replaced by the latest Response; it goes with its
 * session (so with its purge) and with its client.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('samlp_session_participants')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('session_hash', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('name_id', 'text', (c) => c.notNull())
    .addColumn('name_id_format', 'text', (c) => c.notNull())
    .addColumn('session_index', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('samlp_session_participants_pk', ['tenant_id', 'session_hash', 'client_id'])
    .addForeignKeyConstraint('samlp_session_participants_session_fk', ['tenant_id', 'session_hash'], 'sessions', ['tenant_id', 'id_hash'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('samlp_session_participants_client_fk', ['tenant_id', 'client_id'], 'clients', ['tenant_id', 'client_id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('samlp_session_participants').execute();
}
