/**
 * Sign in with Apple (`apple`): an OpenID provider, issuer
 * `https://appleid.apple.com`, answering by form post
 * (`response_mode=form_post` whenever a scope is asked). The client secret
 * is an ES256 JWT signed with the connection's `.p8` key (`app_secret`,
 * `kid`): `iss` the team id, `sub` the Services ID, `aud` the issuer,
 * five minutes. The id_token's `sub` is the id, its email the email
 * (`email_verified` a string at Apple); the name comes only on the first
 * authorization, in the form's `user` JSON, and is kept on later logins.
 */
import { importPKCS8, SignJWT } from 'jose';
import { appleStrategy } from '../../domain/connections/strategies/apple.js';
import type { FederatedProfile } from '../../domain/users/federated-user.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { scopeOf, str, verified } from './profile.js';

/** The `user` member of Apple's first answer: `{"name":{"firstName","lastName"},"email"}`. */
function firstName(user: string | undefined): FederatedProfile {
  if (user === undefined || user.length > 4096) return {};
  try {
    const name = (JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } }).name;
    const given = str(name?.firstName);
    const family = str(name?.lastName);
    const full = [given, family].filter(Boolean).join(' ');
    return { given_name: given, family_name: family, ...(full !== '' && { name: full }) };
  } catch {
    return {};
  }
}

export const apple: SocialProvider = {
  strategy: appleStrategy,
  protocol: 'oidc',
  endpoints: { issuer: 'https://appleid.apple.com' },
  scope: (options) => scopeOf(options.scope),
  authorizationParams: (options) => (scopeOf(options.scope) === '' ? {} : { response_mode: 'form_post' }) as Record<string, string>,
  clientSecret: async (options, audience) => {
    const key = await importPKCS8(String(options.app_secret ?? ''), 'ES256');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: String(options.kid ?? '') })
      .setIssuer(String(options.team_id ?? ''))
      .setSubject(String(options.client_id))
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  },
  firstLoginOnly: ['name', 'given_name', 'family_name'],
  identity: async ({ claims, callback }) => {
    const email = str(claims?.email);
    return { id: str(claims?.sub) ?? '', profile: { email, ...(email !== undefined && { email_verified: verified(claims?.email_verified) }), ...firstName(callback.user) } };
  },
};
