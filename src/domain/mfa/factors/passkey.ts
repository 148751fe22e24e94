/**
 * Passkeys (WebAuthn discoverable credentials) as a database connection's
 * first factor: `options.authentication_methods.passkey.enabled` switches
 * them on, not a Guardian factor, so they are never a login's second factor
 * (`secondFactor: false`, and no Guardian factor enables them for the MFA
 * step). ../passkeys.ts registers and verifies them. The device must verify
 * the user (a fingerprint, a face, a PIN): a passkey stands alone, so
 * possession without the user is not enough.
 */
import type { SecondFactor } from './factor.js';
import { credentialFields } from './webauthn-fields.js';

export const passkeyFactor: SecondFactor = {
  name: 'passkey',
  type: 'passkey',
  apiPrefix: 'passkey',
  secondFactor: false,
  firstFactor: true,
  challenge: 'webauthn',
  requirement: { challenge: 'passkey' },
  webauthn: { userVerification: 'required' },
  listed: (row) => ({ authenticator_type: 'passkey', ...(row.name !== null && { name: row.name }) }),
  methodFields: credentialFields,
};
