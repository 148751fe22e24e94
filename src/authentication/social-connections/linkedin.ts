/**
 * LinkedIn (`linkedin`): its OpenID Connect profile, issuer
 * `https://www.linkedin.com/oauth`; the scopes `openid profile` (and
 * `email` with the `email` flag) stand for the stored `r_…` ones; the
 * id_token's claims are the profile, its `sub` the id.
 */
import { linkedinStrategy } from '../../domain/connections/strategies/linkedin.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { claimsProfile, scopeOf, str } from './profile.js';

export const linkedin: SocialProvider = {
  strategy: linkedinStrategy,
  protocol: 'oidc',
  endpoints: { issuer: 'https://www.linkedin.com/oauth' },
  scope: (options) => scopeOf(options.email === true ? ['email'] : [], ['openid', 'profile']),
  identity: async ({ claims }) => ({ id: str(claims?.sub) ?? '', profile: claimsProfile(claims ?? {}) }),
};
