/**
 * Connection keys of `oidc` and `okta` connections: the key pair a
 * connection signs its client assertions with when it authenticates to its
 * provider with `private_key_jwt` (federation wire notes §1.4, §1.7, §2.4).
 * `POST /connections/{id}/keys` provisions a `current` and a `next` key;
 * `…/keys/rotate` makes `next` current, the current `previous` (the
 * previous one goes) and makes a new `next`, so the provider can be given
 * the next public key before it is used. RSA keys (2048 bits) for RS256,
 * RS384, RS512, PS256 and PS384, with a self-signed certificate (PEM and
 * PKCS#7, its SHA-1 fingerprint and thumbprint, as the service shows them);
 * the private key sealed with the master key, never returned.
 */
import { createPrivateKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { certificateDigests, clientSigningKey, createSigningCertificate } from '../../platform/crypto/certificates.js';
import { newKeyId } from '../../platform/crypto/ids.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/** The algorithms Gatehouse makes keys for (RSA); the service also offers ES256 and ES384, which are not offered yet. */
export const RSA_KEY_ALGS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384'];
export type ConnectionKeyStatus = 'current' | 'next' | 'previous';

export interface ConnectionKeyRow {
  tenant_id: string;
  connection_id: string;
  kid: string;
  status: ConnectionKeyStatus;
  algorithm: string;
  /** PKCS#8 PEM, sealed. */
  private_key: string;
  cert: string;
  pkcs: string;
  fingerprint: string;
  thumbprint: string;
  subject_dn: string;
  current_since: string | null;
  created_at: string;
}

export interface ConnectionKeyStore {
  /** The connection's keys: current, next, previous. */
  list(tenantId: string, connectionId: string): Promise<ConnectionKeyRow[]>;
  /** Inserts the first keys; false when the connection has keys already. */
  provision(rows: readonly ConnectionKeyRow[]): Promise<boolean>;
  /** next → current, current → previous (the previous deleted), `next` inserted; false when there was no next key (a concurrent rotation, or none provisioned). */
  rotate(tenantId: string, connectionId: string, next: ConnectionKeyRow, at: string): Promise<boolean>;
}

/** The key as the Management API shows it (`ConnectionKey`). */
export interface ConnectionKey {
  kid: string;
  cert: string;
  pkcs: string;
  current?: boolean;
  next?: boolean;
  previous?: boolean;
  current_since?: string;
  fingerprint: string;
  thumbprint: string;
  algorithm: string;
  key_use: 'signing';
  subject_dn: string;
}

const sealContext = (row: Pick<ConnectionKeyRow, 'tenant_id' | 'connection_id' | 'kid'>) => `connection key:${row.tenant_id}:${row.connection_id}:${row.kid}`;

/** A new key of the connection, its private key sealed. */
export async function newConnectionKey(box: SecretBox, at: { tenantId: string; connectionId: string; domain: string }, algorithm: string, status: ConnectionKeyStatus, now: string): Promise<ConnectionKeyRow> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
  const der = await createSigningCertificate(privateKey, publicKey, at.domain);
  const { cert, pkcs7 } = clientSigningKey(der);
  const kid = newKeyId();
  const row = { tenant_id: at.tenantId, connection_id: at.connectionId, kid };
  return {
    ...row,
    status,
    algorithm,
    private_key: box.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), sealContext(row)),
    cert,
    pkcs: pkcs7,
    ...certificateDigests(der),
    subject_dn: `CN=${at.domain}`,
    current_since: status === 'current' ? now : null,
    created_at: now,
  };
}

/** The private key of a row, opened. */
export function connectionPrivateKey(box: SecretBox, row: ConnectionKeyRow) {
  return createPrivateKey(box.openString(row.private_key, sealContext(row)));
}

export function connectionKeyOf(row: ConnectionKeyRow): ConnectionKey {
  return {
    kid: row.kid,
    cert: row.cert,
    pkcs: row.pkcs,
    [row.status]: true,
    ...(row.current_since !== null && { current_since: row.current_since }),
    fingerprint: row.fingerprint,
    thumbprint: row.thumbprint,
    algorithm: row.algorithm,
    key_use: 'signing',
    subject_dn: row.subject_dn,
  };
}
