/**
 * Security keys (WebAuthn, cross-platform authenticators: USB, NFC, BLE) as
 * a second factor; ../webauthn.ts registers and verifies them. User
 * verification is not asked of a key by default (a key is the second
 * factor, the password the first), as the service's default.
 */
import type { SecondFactor } from './factor.js';
import { credentialFields } from './webauthn-fields.js';

export const webauthnRoamingFactor: SecondFactor = {
  name: 'webauthn-roaming',
  type: 'webauthn-roaming',
  apiPrefix: 'webauthn-roaming',
  secondFactor: true,
  challenge: 'webauthn',
  requirement: { challenge: 'webauthn-roaming' },
  pageMethod: 'webauthn-roaming',
  webauthn: { attachment: 'cross-platform', userVerification: 'discouraged' },
  listed: (row) => ({ authenticator_type: 'webauthn-roaming', ...(row.name !== null && { name: row.name }) }),
  methodFields: credentialFields,
};
