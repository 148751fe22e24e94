/** A code sent by email (out of band, channel `email`); ../service.ts `startOobEnrolment`, `startOobChallenge`, `verifyOob`. */
import { maskedEmail } from '../model.js';
import type { SecondFactor } from './factor.js';

export const emailFactor: SecondFactor = {
  name: 'email',
  type: 'email',
  apiPrefix: 'email',
  secondFactor: true,
  challenge: 'binding-code',
  requirement: { challenge: 'email', enroll: 'email' },
  api: { challengeType: 'oob', oobChannel: 'email' },
  pageMethod: 'email',
  listed: (row) => ({ authenticator_type: 'oob', oob_channel: 'email', name: maskedEmail(row.email ?? '') }),
  settable: { member: 'email', preferredMethod: false },
  methodFields: (row) => (row.email !== null ? { email: row.email } : {}),
};
