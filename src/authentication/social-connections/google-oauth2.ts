/**
 * Google's login (`google-oauth2`): an OpenID provider, issuer
 * `https://accounts.google.com`; the id_token's claims are the profile, its
 * `sub` the id. `offline_access` asks for a refresh token (`access_type=offline`).
 */
import { googleOauth2Strategy } from '../../domain/connections/strategies/google-oauth2.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { claimsProfile, scopeOf, str } from './profile.js';

export const googleOauth2: SocialProvider = {
  strategy: googleOauth2Strategy,
  protocol: 'oidc',
  endpoints: { issuer: 'https://accounts.google.com' },
  scope: (options) => scopeOf(options.scope, ['openid']),
  authorizationParams: (options) => (options.offline_access === true ? { access_type: 'offline', prompt: 'consent' } : {}) as Record<string, string>,
  identity: async ({ claims }) => ({ id: str(claims?.sub) ?? '', profile: claimsProfile(claims ?? {}) }),
};
