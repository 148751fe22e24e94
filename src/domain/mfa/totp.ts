/**
 * TOTP (RFC 6238) through otpauth, with the parameters authenticator apps
 * assume and the service uses (`algorithm=SHA1&digits=6&period=30`, wire
 * notes §13 barcode_uri): a 160-bit secret in base32, codes accepted one step
 * either side of now for clock drift.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;
const DIGITS = 6;
/** Steps accepted on either side of the current one (RFC 6238 §5.2: "at most one time step"). */
const WINDOW = 1;

function totp(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** A fresh secret, base32 (32 characters, 160 bits). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` enrolment URI, as the QR code carries it. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totp(secret, issuer, label).toString();
}

/**
 * The time step `code` is valid for at `now` (ms), within the window; undefined
 * when it is not a valid code. The step identifies the code for single use.
 */
export function totpStep(secret: string, code: string, now: number): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const generator = totp(secret);
  const delta = generator.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? undefined : generator.counter({ timestamp: now }) + delta;
}

/** When the code of `step` can no longer be accepted (ms): the end of the window after it. */
export function totpStepExpiry(step: number): number {
  return (step + WINDOW + 1) * PERIOD * 1000;
}
