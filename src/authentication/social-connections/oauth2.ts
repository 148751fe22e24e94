/**
 * A generic OAuth 2.0 provider's login (`oauth2`): the connection's own
 * `authorizationURL` and `tokenURL` (reached through the outbound guard like
 * every provider), its `scope`, PKCE when `pkce_enabled`, `customHeaders` on
 * the token request; then the tenant's `scripts.fetchUserProfile`
 * `(accessToken, ctx, callback)` in the sandbox (src/domain/connections/scripts.ts),
 * `ctx` the token response. The profile it answers must carry `user_id`
 * (the user is `oauth2|{connection}|{user_id}`); without the script the
 * profile is empty, as the service documents, and so the login fails for
 * want of a `user_id`. A script that throws, times out or answers no
 * `user_id` ends the login on an error page; what it said is not shown.
 */
import { oauth2Strategy } from '../../domain/connections/strategies/oauth2.js';
import { ProfileRefusal } from '../connections/upstream-login.js';
import type { SocialProvider } from '../oauth2-upstream/index.js';
import { scopeOf, str, verified } from './profile.js';


export const oauth2: SocialProvider = {
  strategy: oauth2Strategy,
  protocol: 'oauth2',
  endpoints: {},
  endpointsOf: (options) => ({
    ...(typeof options.authorizationURL === 'string' && { authorization_endpoint: options.authorizationURL }),
    ...(typeof options.tokenURL === 'string' && { token_endpoint: options.tokenURL }),
  }),
  pkceOf: (options) => options.pkce_enabled === true,
  tokenHeaders: (options) => {
    const headers = options.customHeaders;
    return typeof headers === 'object' && headers !== null ? Object.fromEntries(Object.entries(headers).filter(([, v]) => typeof v === 'string')) : {};
  },
  scope: (options) => scopeOf(options.scope),
  identity: async ({ options, tenantId, accessToken, tokenResponse, scripts }) => {
    const script = (options.scripts as Record<string, unknown> | undefined)?.fetchUserProfile;
    let profile: Record<string, unknown> = {};
    if (typeof script === 'string' && script.trim() !== '') {
      const outcome = await scripts.run(tenantId, script, [accessToken, tokenResponse], {});
      if ('error' in outcome) throw new ProfileRefusal(`The connection's fetchUserProfile script ${outcome.error.name === 'TimeoutError' ? 'ran out of time' : 'failed'}.`);
      if (typeof outcome.value !== 'object' || outcome.value === null || Array.isArray(outcome.value)) throw new ProfileRefusal("The connection's fetchUserProfile script answered no profile.");
      profile = outcome.value as Record<string, unknown>;
    }
    const id = str(profile.user_id);
    if (id === undefined || id.length > 255) throw new ProfileRefusal("The profile of the connection's fetchUserProfile script has no user_id.");
    const email = str(profile.email);
    return {
      id,
      profile: {
        email,
        ...(email !== undefined && { email_verified: verified(profile.email_verified) }),
        name: str(profile.name),
        given_name: str(profile.given_name),
        family_name: str(profile.family_name),
        nickname: str(profile.nickname),
        picture: str(profile.picture),
      },
    };
  },
};
