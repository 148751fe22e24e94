/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A user's MFA enrolment (migration 0020). */
export interface MfaAuthenticatorRow {
  tenant_id: string;
  /** `dev_…`. */
  id: string;
  user_id: string;
  /** `totp`, `recovery-code`, `email` or `phone`. */
  type: string;
  /** 0 until the first code proved the enrolment. */
  confirmed: number;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  /** TOTP: the base32 secret, sealed (src/domain/mfa/model.ts totpSecretContext). */
  secret_enc: string | null;
  /** Recovery code: its SHA-256. */
  code_hash: string | null;
  created_at: string;
  enrolled_at: string | null;
  last_auth_at: string | null;
  /** Push (migration 0050): `APNS` or `GCM`, once the device enrolled. */
  push_service?: string | null;
  /** Push: the device's push token, sealed (src/domain/mfa/model.ts pushTokenContext). */
  push_token_enc?: string | null;
  /** Push: the device's public key, a JWK as JSON. WebAuthn (migration 0125): the credential's COSE public key, base64url. */
  public_key?: string | null;
  /** WebAuthn: the credential's id, base64url; unique in the tenant. */
  credential_id?: string | null;
  /** WebAuthn: the authenticator's signature counter at the last use. */
  sign_count?: number | null;
  /** WebAuthn: the transports the browser reported, a JSON list. */
  transports?: string | null;
  /** WebAuthn: `singleDevice` or `multiDevice`. */
  credential_device_type?: string | null;
  /** WebAuthn: 1 when the credential is backed up (synced). */
  credential_backed_up?: number | null;
}

/** An out-of-band challenge (migration 0020): the oob_code and its binding code, both as SHA-256. */
export interface MfaChallengeRow {
  tenant_id: string;
  oob_hash: string;
  authenticator_id: string;
  user_id: string;
  client_id: string;
  binding_hash: string;
  expires_at: string;
  used_at: string | null;
  /** Push (migration 0050): `pending`, `approved` or `denied`; null for binding-code challenges. */
  status?: string | null;
  /** Push: SHA-256 of the transaction id the device names. */
  transaction_hash?: string | null;
  last_polled_at?: string | null;
}

/** Consecutive wrong second-factor codes of a user in a window (migration 0020). */
export interface MfaFailureRow {
  tenant_id: string;
  user_id: string;
  failures: number;
  window_started_at: string;
}
