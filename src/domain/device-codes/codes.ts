/**
 * User codes of the device authorization flow (RFC 8628 §6.1): 8 characters
 * of the base-20 alphabet without vowels or look-alikes
 * (`BCDFGHJKLMNPQRSTVWXZ`), about 34.5 bits, shown as `XXXX-XXXX` (wire
 * notes §12). Typed codes are compared after normalisation: case, the dash
 * and spaces do not matter.
 */
import { randomInt } from 'node:crypto';

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/** A new user code, `XXXX-XXXX`. */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code as stored (its hash is of this): upper case, without separators; undefined when it cannot be one. */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** `XXXX-XXXX` of a normalised code. */
export function displayUserCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}
