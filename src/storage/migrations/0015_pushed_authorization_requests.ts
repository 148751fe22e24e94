/**
 * Pushed authorization requests (RFC 9126, POST /oauth/par): the request's
 * parameters, kept under the SHA-256 of the `request_uri` secret until
 * /authorize uses them once or they expire (the client's
 * `par_request_expiry`). Bound to the client that pushed them.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pushed_authorization_requests')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('pushed_authorization_requests_pk', ['tenant_id', 'id_hash'])
    .execute();
  await db.schema.createIndex('pushed_authorization_requests_expires_idx').on('pushed_authorization_requests').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pushed_authorization_requests').execute();
}
