/**
 * The second factors Gatehouse implements, one module each (./factor.ts):
 * the only list the MFA step, the /mfa API and the Management API read to
 * learn what a factor is. A new factor is one module and one line here.
 */
import type { FactorName } from '../model.js';
import type { MfaAuthenticatorRow } from '../rows.js';
import { duoFactor } from './duo.js';
import { emailFactor } from './email.js';
import type { ApiAuthenticator, SecondFactor } from './factor.js';
import { otpFactor } from './otp.js';
import { passkeyFactor } from './passkey.js';
import { pushNotificationFactor } from './push-notification.js';
import { recoveryCodeFactor } from './recovery-code.js';
import { smsFactor } from './sms.js';
import { webauthnPlatformFactor } from './webauthn-platform.js';
import { webauthnRoamingFactor } from './webauthn-roaming.js';

/** In the order the hosted MFA page offers them; the passkey last (a first factor, never offered there). */
export const SECOND_FACTORS: readonly SecondFactor[] = [
  webauthnPlatformFactor,
  webauthnRoamingFactor,
  otpFactor,
  pushNotificationFactor,
  emailFactor,
  smsFactor,
  recoveryCodeFactor,
  duoFactor,
  passkeyFactor,
];

const BY_TYPE = new Map(SECOND_FACTORS.map((f) => [f.type, f]));
const BY_NAME = new Map<string, SecondFactor>(SECOND_FACTORS.map((f) => [f.name, f]));
const BY_PAGE_METHOD = new Map(SECOND_FACTORS.flatMap((f) => (f.pageMethod ? [[f.pageMethod, f] as const] : [])));

/** The factor of a stored enrolment; undefined for a type no module knows (a row of a newer version). */
export function factorOf(row: Pick<MfaAuthenticatorRow, 'type'>): SecondFactor | undefined {
  return BY_TYPE.get(row.type);
}

export function factorNamed(name: string): SecondFactor | undefined {
  return BY_NAME.get(name);
}

/** The factor of a hosted MFA page's `method`. */
export function factorOfPageMethod(method: string | undefined): SecondFactor | undefined {
  return method === undefined ? undefined : BY_PAGE_METHOD.get(method);
}

/** The factor whose enrolments are stored (and named by the Management API) as `type`. */
export function factorOfType(type: string): SecondFactor | undefined {
  return BY_TYPE.get(type);
}

/** The recovery code: the factor that only stands in for another (challenge `none`). */
export const RECOVERY_CODE_FACTOR: SecondFactor = SECOND_FACTORS.find((f) => f.challenge === 'none')!;

/** The authenticator app: the factor whose code the user types (challenge `code`), the one enrolment tickets and the enrolment page start with. */
export const OTP_FACTOR: SecondFactor = SECOND_FACTORS.find((f) => f.challenge === 'code')!;

/** The factor whose own service the browser is sent to (challenge `redirect`): Duo. */
export const REDIRECT_FACTOR: SecondFactor = SECOND_FACTORS.find((f) => f.challenge === 'redirect')!;

/** Whether the enrolment is the user's recovery code. */
export function isRecoveryCode(row: Pick<MfaAuthenticatorRow, 'type'>): boolean {
  return factorOf(row) === RECOVERY_CODE_FACTOR;
}

/** Whether the tenant's enabled Guardian factors switch `factor` on as a second factor (a passkey: never, the connection enables it). */
export function factorEnabled(enabled: ReadonlySet<FactorName>, factor: SecondFactor): boolean {
  return factor.name !== 'passkey' && enabled.has(factor.name);
}

/** The factor that logs a user in on its own (passkeys), by which a first factor's enrolments are found. */
export const FIRST_FACTOR: SecondFactor = passkeyFactor;

/** Whether the enrolment logs its user in on its own (a passkey). */
export function isFirstFactor(row: Pick<MfaAuthenticatorRow, 'type'>): boolean {
  return factorOf(row)?.firstFactor === true;
}

/** Whether Gatehouse implements the Guardian factor (the others are listed, always disabled). */
export function supportedFactor(name: FactorName): boolean {
  return BY_NAME.has(name);
}

/** `totp|dev_…` for the /mfa API and the Management API's authentication methods. */
export function authenticatorApiId(row: Pick<MfaAuthenticatorRow, 'type' | 'id'>): string {
  return `${factorOf(row)?.apiPrefix ?? row.type}|${row.id}`;
}

/** An enrolment as GET /mfa/authenticators lists it. */
export function apiAuthenticator(row: MfaAuthenticatorRow): ApiAuthenticator {
  return { id: authenticatorApiId(row), ...factorOf(row)!.listed(row), active: row.confirmed === 1 };
}
