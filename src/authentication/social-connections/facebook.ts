/**
 * Facebook (`facebook`): OAuth 2.0 (PKCE S256) at
 * `https://www.facebook.com/v19.0/dialog/oauth` and the Graph API's
 * `/me?fields=…`: its `id` is the id; the email it gives is one Facebook
 * confirmed (it gives none otherwise), so it is marked verified.
 */
import { facebookStrategy } from '../../domain/connections/strategies/facebook.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { scopeOf, str } from './profile.js';

const GRAPH = 'https://graph.facebook.com/v19.0';

export const facebook: SocialProvider = {
  strategy: facebookStrategy,
  protocol: 'oauth2',
  endpoints: { authorization_endpoint: 'https://www.facebook.com/v19.0/dialog/oauth', token_endpoint: `${GRAPH}/oauth/access_token`, api_base: GRAPH },
  pkce: true,
  scope: (options) => scopeOf(options.scope),
  identity: async ({ api }) => {
    const me = (await api('/me?fields=id,name,first_name,last_name,email,picture')) as Record<string, unknown>;
    const email = str(me.email);
    const picture = (me.picture as { data?: { url?: unknown } } | undefined)?.data?.url;
    return {
      id: str(me.id) ?? '',
      profile: { email, ...(email !== undefined && { email_verified: 'true' }), name: str(me.name), given_name: str(me.first_name), family_name: str(me.last_name), picture: str(picture) },
    };
  },
};
