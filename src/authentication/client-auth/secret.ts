/**
 * What the two secret methods share: comparing the presented secret with the
 * client's, in constant time and without leaking the secret's length.
 * A wrong or missing secret is the service's 401 `access_denied` "Unauthorized"
 * (authentication-api-wire-notes §5.1).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { PresentedCredentials } from './method.js';

function secretsEqual(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  const length = Math.max(a.length, b.length);
  const pa = Buffer.alloc(length);
  const pb = Buffer.alloc(length);
  a.copy(pa);
  b.copy(pb);
  return timingSafeEqual(pa, pb) && a.length === b.length;
}

export async function verifySecret(client: IssuanceClient, credentials: PresentedCredentials): Promise<void> {
  if (credentials.secret === undefined || client.secret === undefined) throw oauthErrors.clientUnauthorized();
  if (!secretsEqual(credentials.secret, client.secret)) throw oauthErrors.clientUnauthorized();
}
