/**
 * CSRF tokens of the hosted pages' forms: HMAC-SHA256, under a key derived
 * (HKDF-SHA256, RFC 5869) from the master key with one `info` per form, of
 * the values the form is bound to (tenant, ticket or transaction, browser,
 * session). They need no storage, cannot be computed without the master key,
 * and a token of one form never fits another.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export class FormTokens {
  readonly #key: Buffer;

  constructor(masterKey: Buffer, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
  }

  /** The token for these bound values (joined with NUL, so no two lists give the same input). */
  token(...bound: readonly string[]): string {
    return createHmac('sha256', this.#key).update(bound.join('\u0000')).digest('base64url');
  }

  /** Whether `given` is the token for these values, compared in constant time. */
  matches(given: string | undefined, ...bound: readonly string[]): boolean {
    if (!given) return false;
    const expected = Buffer.from(this.token(...bound));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
