/**
 * Duo Security through Duo's Universal Prompt: the MFA step sends the
 * browser to Duo, which enrols and challenges the user itself, and checks
 * Duo's answer (../duo.ts). Gatehouse stores no enrolment: every user of a
 * tenant with the factor on (and its settings complete) goes to Duo, so the
 * /mfa API, /mfa/authenticators and the Management API's enrolments never
 * show one.
 */
import type { SecondFactor } from './factor.js';

export const duoFactor: SecondFactor = {
  name: 'duo',
  type: 'duo',
  apiPrefix: 'duo',
  secondFactor: true,
  challenge: 'redirect',
  requirement: { challenge: 'duo' },
  listed: () => ({ authenticator_type: 'duo' }),
  methodFields: () => ({}),
};
