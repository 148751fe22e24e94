/**
 * The keys of OpenID Connect connections (`oidc`, `okta`): the key pair a
 * connection signs its client assertions with toward the provider
 * (`token_endpoint_auth_method: private_key_jwt`), managed with
 * `/connections/{id}/keys` and `/keys/rotate` (federation wire notes §1.7).
 * The private key is sealed with the master key; the certificate and its
 * digests are public. At most one `current` and one `next` key per
 * connection; rotated-out keys stay as `previous` until the next rotation.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connection_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('kid', 'text', (c) => c.notNull())
    /** `current`, `next` or `previous`. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    /** The PKCS#8 private key (PEM), sealed under the master key. */
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('cert', 'text', (c) => c.notNull())
    .addColumn('pkcs', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('thumbprint', 'text', (c) => c.notNull())
    .addColumn('subject_dn', 'text', (c) => c.notNull())
    .addColumn('current_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connection_keys_pk', ['tenant_id', 'connection_id', 'kid'])
    .addForeignKeyConstraint('connection_keys_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('connection_keys').execute();
}
