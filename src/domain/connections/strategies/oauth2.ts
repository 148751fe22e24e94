/**
 * A generic OAuth 2.0 provider (`oauth2`, the service's "custom social
 * connection"; federation wire notes §1.3): `authorizationURL` and
 * `tokenURL` (https, as the service's schema requires), `client_id`,
 * `client_secret`, `scope` (a string or a list, kept as sent: nothing is
 * computed), `pkce_enabled`, `customHeaders` toward the token endpoint, and
 * `scripts.fetchUserProfile`, the tenant's JavaScript that turns the access
 * token into a profile; it runs in the sandbox (../scripts.ts). The profile's
 * `user_id` makes the user `oauth2|{connection}|{user_id}`, as the service
 * names custom social users. Its login: src/authentication/social-connections/oauth2.ts.
 */
import { socialOptionsProblem } from '../social-options.js';
import { MAX_SCRIPT_CHARS } from '../scripts.js';
import { socialStrategy, type SocialStrategy } from './social.js';
import { enterpriseUserId, type OptionsProblem } from './strategy.js';

const RULES = { credentials: { client_id: 255, client_secret: 255 }, flags: {}, scopeShape: 'array' as const };
const URL_MAX = 2083;
const SCRIPTS = ['fetchUserProfile', 'getLogoutUrl'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function oauth2OptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  const at = (key: string, message: string): OptionsProblem => ({ property: `options.${key}`, message });
  for (const key of ['authorizationURL', 'tokenURL', 'logoutUrl']) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^https:\/\//.test(value) || value.length > URL_MAX || !URL.canParse(value)) return at(key, `must be an https URL of at most ${URL_MAX} characters`);
  }
  const scope = options.scope;
  if (scope !== undefined && !(typeof scope === 'string' && scope.length <= 4096) && !(Array.isArray(scope) && scope.length <= 20 && scope.every((s) => typeof s === 'string' && s.length <= 255))) {
    return at('scope', 'must be a string of at most 4096 characters or a list of at most 20 scopes');
  }
  if (options.pkce_enabled !== undefined && typeof options.pkce_enabled !== 'boolean') return at('pkce_enabled', 'must be a boolean');
  if (options.customHeaders !== undefined) {
    const headers = options.customHeaders;
    if (!isRecord(headers) || Object.keys(headers).length > 30 || Object.values(headers).some((v) => typeof v !== 'string' || v.length > 4096)) return at('customHeaders', 'must be an object of at most 30 string headers');
  }
  if (options.scripts !== undefined) {
    if (!isRecord(options.scripts)) return at('scripts', 'must be an object');
    for (const [name, script] of Object.entries(options.scripts)) {
      if (!SCRIPTS.includes(name)) return at(`scripts.${name}`, `is not a script of the oauth2 strategy (${SCRIPTS.join(', ')})`);
      if (typeof script !== 'string') return at(`scripts.${name}`, 'Expected type string');
      if (script.length > MAX_SCRIPT_CHARS) return at(`scripts.${name}`, `String is too long (${script.length} chars), maximum ${MAX_SCRIPT_CHARS}`);
    }
  }
  const rest = Object.fromEntries(Object.entries(options).filter(([key]) => !['authorizationURL', 'tokenURL', 'logoutUrl', 'scope', 'pkce_enabled', 'customHeaders', 'scripts'].includes(key)));
  return socialOptionsProblem(RULES, rest);
}

export const oauth2Strategy: SocialStrategy = {
  // No provider name: its login button says the connection's display_name, else its name.
  ...socialStrategy('oauth2', '', RULES),
  optionsProblem: oauth2OptionsProblem,
  // `scope` is kept as sent (the service computes nothing for oauth2).
  prepareOptions: async (options) => options,
  userId: enterpriseUserId('oauth2'),
};
