/** Reading a provider's profile members: strings only, and `email_verified` as the profile stores it. */
import type { FederatedProfile } from '../../domain/users/federated-user.js';

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

/** `true` or `"true"` (Apple sends strings) as `'true'`, anything else `'false'`. */
export const verified = (value: unknown): 'true' | 'false' => (value === true || value === 'true' ? 'true' : 'false');

/** The standard OpenID Connect claims of a verified id_token as a profile. */
export function claimsProfile(claims: Record<string, unknown>): FederatedProfile {
  const email = str(claims.email);
  return {
    email,
    ...(email !== undefined && { email_verified: verified(claims.email_verified) }),
    name: str(claims.name),
    given_name: str(claims.given_name),
    family_name: str(claims.family_name),
    nickname: str(claims.nickname),
    picture: str(claims.picture),
  };
}

/** The scope of the authorization request: the stored scope (array or string) joined by spaces, with `required` first. */
export function scopeOf(stored: unknown, required: readonly string[] = []): string {
  const scopes = Array.isArray(stored) ? stored.map(String) : typeof stored === 'string' ? stored.split(/[ ,]+/) : [];
  return [...new Set([...required, ...scopes.filter(Boolean)])].join(' ');
}
