/** What the Management API shows of any WebAuthn credential (security key, device biometrics, passkey). */
import type { Enrolment, MethodFields } from './factor.js';

export function credentialFields(row: Enrolment): MethodFields {
  return {
    ...(row.credential_id && { key_id: row.credential_id }),
    ...(row.public_key && { public_key: row.public_key }),
    ...(row.credential_device_type && { credential_device_type: row.credential_device_type }),
    ...(row.credential_backed_up != null && { credential_backed_up: row.credential_backed_up === 1 }),
  };
}
