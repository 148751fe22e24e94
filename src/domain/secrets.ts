/**
 * The opaque secrets Gatehouse hands out and only ever stores hashed: SSO
 * session cookies, /authorize transaction ids, authorization codes, emailed
 * tickets and refresh tokens. Each is 256 random bits, base64url; the stores
 * keep its SHA-256 (base64url), so neither a database read nor a backup
 * yields a working one, and a lookup by hash needs no constant-time compare.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A fresh secret: 256 random bits, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A fresh refresh token: `v1.` and a new secret (46 characters), as the service's look. */
export function newRefreshToken(): string {
  return `v1.${newSecret()}`;
}

/** What a store keeps of a secret: base64url SHA-256. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}
