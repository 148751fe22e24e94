/**
 * Strong client authentication (private_key_jwt, mTLS):
 *
 * - `client_credentials`: a client's registered public keys and
 *   certificates (POST /api/v2/clients/{id}/credentials): `public_key` (a
 *   PEM public key or certificate with its `alg`), `x509_cert` (a
 *   self-signed certificate for `self_signed_tls_client_auth`, matched by its
 *   SHA-256 thumbprint) and `cert_subject_dn` (the subject DN a CA-verified
 *   certificate must carry for `tls_client_auth`). Deleted with the client.
 *   `kid` is unique per client.
 * - `one_time_uses`: identifiers that may be used once (a client
 *   assertion's or DPoP proof's `jti`), kept under their SHA-256 per tenant
 *   and purpose until they expire; the primary key makes a second use fail
 *   in every process on the same database.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_credentials')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('credential_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kid', idType(db), (c) => c.notNull())
    .addColumn('alg', 'text')
    .addColumn('pem', 'text')
    .addColumn('subject_dn', 'text')
    .addColumn('thumbprint_sha256', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_credentials_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('client_credentials_client_fk', ['tenant_id', 'client_id'], 'clients', ['tenant_id', 'client_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('client_credentials_client_kid_uq').on('client_credentials').columns(['tenant_id', 'client_id', 'kid']).unique().execute();

  await db.schema
    .createTable('one_time_uses')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('one_time_uses_pk', ['tenant_id', 'purpose', 'key_hash'])
    .execute();
  await db.schema.createIndex('one_time_uses_expires_idx').on('one_time_uses').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('one_time_uses').execute();
  await db.schema.dropTable('client_credentials').execute();
}
