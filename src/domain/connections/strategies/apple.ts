/**
 * Sign in with Apple (`apple`): an OpenID provider answering by form post;
 * users `apple|{sub}`. The credentials are the Services ID (`client_id`),
 * the `.p8` private key (`app_secret`, PEM), its key id (`kid`) and the
 * team id (`team_id`): the client secret sent to Apple is a short ES256 JWT
 * signed with that key at each login. `scope` is a space-separated string
 * from the `name` and `email` flags, as the service's recordings show.
 */
import { socialStrategy } from './social.js';

export const appleStrategy = socialStrategy('apple', 'Apple', {
  credentials: { client_id: 384, app_secret: 5120, kid: 1536, team_id: 256 },
  flags: { name: ['name'], email: ['email'] },
  scopeShape: ' ',
});
