/**
 * A database connection's passkey settings, as the service names them:
 * `options.authentication_methods.passkey.enabled` switches passkeys on (off
 * unless true), `options.passkey_options` says how the login page offers
 * them (`challenge_ui`: the "Continue with a passkey" button, the browser's
 * autofill in the identifier field, or both, the default), and whether a
 * user who logged in with a password is offered to create one
 * (`progressive_enrollment_enabled`, on unless false, as the service's
 * default). `local_enrollment_enabled` (a passkey of this device after one
 * from another device) is stored and shown but has no effect: Gatehouse
 * cannot tell a cross-device ceremony from a local one.
 * `options.authentication_methods.password.enabled: false` closes signup
 * with a password: the signup page then offers passkeys alone (the login
 * page still takes the passwords users have).
 */
import type { ConnectionRow } from './model.js';

export type PasskeyChallengeUi = 'both' | 'autofill' | 'button';

export interface PasskeySettings {
  /** The "Continue with a passkey" button. */
  button: boolean;
  /** Conditional mediation: the browser offers passkeys in the identifier field. */
  autofill: boolean;
  /** After a password login, the offer to create a passkey. */
  progressiveEnrolment: boolean;
  /** Whether new users may sign up with a password. */
  passwords: boolean;
}

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** The connection's passkey settings; undefined when passkeys are off (or there is no connection). */
export function passkeySettings(connection: ConnectionRow | undefined): PasskeySettings | undefined {
  const options: unknown = connection?.options;
  const methods = member(options, 'authentication_methods');
  if (member(member(methods, 'passkey'), 'enabled') !== true) return undefined;
  const passkeyOptions = member(options, 'passkey_options');
  const ui = member(passkeyOptions, 'challenge_ui');
  const challengeUi: PasskeyChallengeUi = ui === 'autofill' || ui === 'button' ? ui : 'both';
  return {
    button: challengeUi !== 'autofill',
    autofill: challengeUi !== 'button',
    progressiveEnrolment: member(passkeyOptions, 'progressive_enrollment_enabled') !== false,
    passwords: member(member(methods, 'password'), 'enabled') !== false,
  };
}
