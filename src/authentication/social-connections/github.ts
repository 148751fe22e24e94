/**
 * GitHub's login (`github`): plain OAuth 2.0 (PKCE S256) at
 * `https://github.com/login/oauth/…`, then its REST API at
 * `https://api.github.com`: `/user` (the numeric `id`, `login` as the
 * nickname, `avatar_url` as the picture) and, with the `email` flag,
 * `/user/emails`, of which only the primary address is taken: verified, it
 * is the user's verified email; unverified, `email_verified` is false.
 * Without `/user/emails` the public `/user` email is taken, unverified.
 */
import { githubStrategy } from '../../domain/connections/strategies/github.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { scopeOf, str } from './profile.js';

interface GithubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

const HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };

export const github: SocialProvider = {
  strategy: githubStrategy,
  protocol: 'oauth2',
  endpoints: { authorization_endpoint: 'https://github.com/login/oauth/authorize', token_endpoint: 'https://github.com/login/oauth/access_token', api_base: 'https://api.github.com' },
  pkce: true,
  scope: (options) => scopeOf(options.scope),
  identity: async ({ api, options }) => {
    const user = (await api('/user', HEADERS)) as Record<string, unknown>;
    let email = str(user.email);
    let emailVerified: 'true' | 'false' = 'false';
    if (options.email === true) {
      const emails = (await api('/user/emails', HEADERS)) as GithubEmail[];
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true) : undefined;
      if (primary && str(primary.email)) {
        email = str(primary.email);
        emailVerified = primary.verified === true ? 'true' : 'false';
      }
    }
    const login = str(user.login);
    return {
      id: typeof user.id === 'number' && Number.isSafeInteger(user.id) ? String(user.id) : '',
      profile: { email, ...(email !== undefined && { email_verified: emailVerified }), name: str(user.name) ?? login, nickname: login, picture: str(user.avatar_url) },
    };
  },
};
