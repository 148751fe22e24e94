/**
 * LinkedIn (`linkedin`): its OpenID Connect profile ("Sign In with
 * LinkedIn using OpenID Connect", issuer `https://www.linkedin.com/oauth`);
 * users `linkedin|{sub}`. The stored `scope` is computed from the flags as
 * the service's recordings show (`email` → `r_emailaddress`, `profile` →
 * `r_liteprofile`, `basic_profile` → `r_basicprofile`); the login asks for
 * the OpenID scopes that stand for them (`openid profile`, and `email` with
 * the `email` flag).
 */
import { socialStrategy } from './social.js';

export const linkedinStrategy = socialStrategy('linkedin', 'LinkedIn', {
  credentials: { client_id: 255, client_secret: 255 },
  flags: { email: ['r_emailaddress'], profile: ['r_liteprofile'], basic_profile: ['r_basicprofile'], full_profile: ['r_fullprofile'], network: ['r_network'], openid: [] },
  defaultFlags: ['profile'],
  scopeShape: 'array',
});
