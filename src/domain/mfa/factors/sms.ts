/** A code sent by text message (out of band, channel `sms`); stored as `phone`, as the Management API names it. */
import { maskedPhone } from '../model.js';
import type { SecondFactor } from './factor.js';

export const smsFactor: SecondFactor = {
  name: 'sms',
  type: 'phone',
  apiPrefix: 'sms',
  secondFactor: true,
  sendLimit: 'mfa_sms_challenge',
  challenge: 'binding-code',
  requirement: { challenge: 'phone', enroll: 'phone' },
  api: { challengeType: 'oob', oobChannel: 'sms' },
  pageMethod: 'sms',
  listed: (row) => ({ authenticator_type: 'oob', oob_channel: 'sms', name: maskedPhone(row.phone_number ?? '') }),
  settable: { member: 'phone_number', preferredMethod: true },
  methodFields: (row) => ({ preferred_authentication_method: 'sms', ...(row.phone_number !== null && { phone_number: row.phone_number }) }),
  enrollment: { type: 'sms', authMethod: 'sms' },
};
