/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** A public JWK (RSA: kty, n, e). */
export type PublicJwk = { kty: string; n: string; e: string } & JsonObject;

export interface SigningKeyRow {
  tenant_id: string;
  kid: string;
  /** PKCS#8 PEM sealed with the master key (context `signing_key:<kid>`). */
  private_key_enc: string;
  public_jwk: PublicJwk;
  /** Base64 DER of the self-signed certificate published as `x5c`. */
  cert_der: string;
  /**
   * `next` is published and will sign after the next rotation; `current`
   * signs; `previous` only verifies; `revoked` neither (migration 0061).
   */
  status: SigningKeyStatus;
  created_at: string;
  /** When it became current; null while `next`. */
  current_since: string | null;
  /** When a rotation made it `previous`. */
  current_until: string | null;
  revoked_at: string | null;
}

export type SigningKeyStatus = 'next' | 'current' | 'previous' | 'revoked';
