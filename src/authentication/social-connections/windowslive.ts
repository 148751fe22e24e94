/**
 * Microsoft accounts (`windowslive`): OAuth 2.0 (PKCE S256) at the
 * Microsoft identity platform's consumer endpoints, then Microsoft Graph's
 * `/v1.0/me`: its `id` is the id, `mail` (or the sign-in name) the email,
 * verified as the service marks it, `displayName`, `givenName`, `surname`.
 */
import { windowsliveStrategy } from '../../domain/connections/strategies/windowslive.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { scopeOf, str } from './profile.js';

const LOGIN = 'https://login.microsoftonline.com/consumers/oauth2/v2.0';

export const windowslive: SocialProvider = {
  strategy: windowsliveStrategy,
  protocol: 'oauth2',
  endpoints: { authorization_endpoint: `${LOGIN}/authorize`, token_endpoint: `${LOGIN}/token`, api_base: 'https://graph.microsoft.com' },
  pkce: true,
  scope: (options) => scopeOf(options.scope),
  identity: async ({ api }) => {
    const me = (await api('/v1.0/me')) as Record<string, unknown>;
    const email = str(me.mail) ?? str(me.userPrincipalName);
    return {
      id: str(me.id) ?? '',
      profile: { email, ...(email !== undefined && { email_verified: 'true' }), name: str(me.displayName), given_name: str(me.givenName), family_name: str(me.surname), nickname: email },
    };
  },
};
