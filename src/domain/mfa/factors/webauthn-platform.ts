/**
 * Device biometrics (WebAuthn, the platform authenticator: Touch ID,
 * Windows Hello, Android) as a second factor; ../webauthn.ts registers and
 * verifies them. The device must verify the user (a fingerprint, a face, a
 * PIN): that is what the factor is.
 */
import type { SecondFactor } from './factor.js';
import { credentialFields } from './webauthn-fields.js';

export const webauthnPlatformFactor: SecondFactor = {
  name: 'webauthn-platform',
  type: 'webauthn-platform',
  apiPrefix: 'webauthn-platform',
  secondFactor: true,
  challenge: 'webauthn',
  requirement: { challenge: 'webauthn-platform' },
  pageMethod: 'webauthn-platform',
  webauthn: { attachment: 'platform', userVerification: 'required' },
  listed: (row) => ({ authenticator_type: 'webauthn-platform', ...(row.name !== null && { name: row.name }) }),
  methodFields: credentialFields,
};
