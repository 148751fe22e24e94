/** The recovery code: stands in for a second factor, once; ../service.ts `firstRecoveryCode`, `useRecoveryCode`. */
import type { SecondFactor } from './factor.js';

export const recoveryCodeFactor: SecondFactor = {
  name: 'recovery-code',
  type: 'recovery-code',
  apiPrefix: 'recovery-code',
  secondFactor: false,
  challenge: 'none',
  requirement: { challenge: 'recovery-code' },
  pageMethod: 'recovery',
  listed: () => ({ authenticator_type: 'recovery-code' }),
  methodFields: () => ({}),
};
