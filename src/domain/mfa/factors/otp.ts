/** Authenticator apps (RFC 6238 TOTP): a code from the app; the rules are ../service.ts `startTotpEnrolment`, `verifyTotp`. */
import type { SecondFactor } from './factor.js';

export const otpFactor: SecondFactor = {
  name: 'otp',
  type: 'totp',
  apiPrefix: 'totp',
  secondFactor: true,
  challenge: 'code',
  requirement: { challenge: 'otp', enroll: 'otp' },
  api: { challengeType: 'otp' },
  pageMethod: 'otp',
  listed: () => ({ authenticator_type: 'otp' }),
  settable: { member: 'totp_secret', preferredMethod: false },
  methodFields: () => ({}),
  enrollment: { type: 'authenticator', authMethod: 'authenticator' },
};
