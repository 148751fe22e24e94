/** Push to an enrolled device (channel `auth0`); ../push.ts holds its enrolment, challenge and the device's answer. */
import type { SecondFactor } from './factor.js';

export const pushNotificationFactor: SecondFactor = {
  name: 'push-notification',
  type: 'push',
  apiPrefix: 'push',
  secondFactor: true,
  sendLimit: 'mfa_push_challenge',
  challenge: 'push',
  requirement: { challenge: 'push-notification', enroll: 'push-notification' },
  api: { challengeType: 'oob', oobChannel: 'auth0' },
  pageMethod: 'push',
  listed: (row) => ({ authenticator_type: 'oob', oob_channel: 'auth0', ...(row.name !== null && { name: row.name }) }),
  methodFields: () => ({}),
  enrollment: { type: 'pn', authMethod: 'guardian' },
};
