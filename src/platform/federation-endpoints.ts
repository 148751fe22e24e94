/**
 * GATEHOUSE_FEDERATION_ENDPOINTS: the path of a JSON file naming, per social
 * strategy, the endpoints its logins use instead of the provider's own
 * (`{"github": {"authorization_endpoint": …, "token_endpoint": …,
 * "api_base": …}, "google-oauth2": {"issuer": …}}`), for tests and staging
 * against local stand-ins (federation wire notes §6.3). Read once at start;
 * the server logs a warning on every start while it is set. Every URL must
 * be https, and the upstreams are still reached through the outbound guard.
 * A file that is not exactly right stops the start (the members a strategy
 * uses, each of them, and nothing else): a half-replaced provider would
 * send a login partly to the real one.
 */
import fs from 'node:fs';

/** The endpoints of one strategy that may be replaced. */
export interface FederationEndpoints {
  /** An OpenID provider's issuer: its discovery document (`/.well-known/openid-configuration`) gives the rest. */
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  /** The base URL of the provider's profile API (GitHub's `/user`, Microsoft Graph's `/v1.0/me`, Facebook's `/me`). */
  api_base?: string;
}

export type FederationEndpointOverrides = Readonly<Record<string, Readonly<FederationEndpoints>>>;

/** The strategies whose endpoints may be replaced. */
export const REPLACEABLE_STRATEGIES = ['google-oauth2', 'github', 'apple', 'windowslive', 'facebook', 'linkedin', 'waad', 'google-apps'] as const;
const MEMBERS = ['issuer', 'authorization_endpoint', 'token_endpoint', 'api_base'] as const;
type Member = (typeof MEMBERS)[number];
const OAUTH2: readonly Member[] = ['authorization_endpoint', 'token_endpoint', 'api_base'];
/**
 * The members each strategy uses, all required: an OpenID provider its
 * issuer alone (its discovery document gives the rest), a plain OAuth 2.0
 * provider its three endpoints. A member the strategy would ignore, or a
 * missing one (which would leave part of its logins going to the provider's
 * own endpoints), stops the start.
 */
const SHAPES: Readonly<Record<(typeof REPLACEABLE_STRATEGIES)[number], readonly Member[]>> = {
  'google-oauth2': ['issuer'],
  apple: ['issuer'],
  linkedin: ['issuer'],
  'google-apps': ['issuer'],
  waad: ['issuer'],
  github: OAUTH2,
  facebook: OAUTH2,
  windowslive: OAUTH2,
};
const MAX_FILE = 64 * 1024;

/** The overrides of the file at `file`; throws an Error naming what is wrong. */
export function readFederationEndpoints(file: string): FederationEndpointOverrides {
  let raw: string;
  try {
    if (fs.statSync(file).size > MAX_FILE) throw new Error(`larger than ${MAX_FILE} bytes`);
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} must hold a JSON object of strategies`);
  const overrides: Record<string, FederationEndpoints> = {};
  for (const [strategy, endpoints] of Object.entries(parsed)) {
    if (!(REPLACEABLE_STRATEGIES as readonly string[]).includes(strategy)) throw new Error(`"${strategy}" is not one of ${REPLACEABLE_STRATEGIES.join(', ')}`);
    if (endpoints === null || typeof endpoints !== 'object' || Array.isArray(endpoints)) throw new Error(`"${strategy}" must be an object of endpoints`);
    const entry: FederationEndpoints = {};
    const shape = SHAPES[strategy as keyof typeof SHAPES];
    for (const [member, url] of Object.entries(endpoints as Record<string, unknown>)) {
      if (!(MEMBERS as readonly string[]).includes(member)) throw new Error(`"${strategy}.${member}" is not one of ${MEMBERS.join(', ')}`);
      if (!shape.includes(member as Member)) throw new Error(`"${strategy}.${member}" is not used by ${strategy}, which takes ${shape.join(', ')}`);
      if (typeof url !== 'string' || !/^https:\/\//.test(url) || !URL.canParse(url)) throw new Error(`"${strategy}.${member}" must be an https URL`);
      entry[member as Member] = url.replace(/\/$/, '');
    }
    const missing = shape.filter((member) => entry[member] === undefined);
    if (missing.length > 0) throw new Error(`"${strategy}" needs ${missing.join(', ')} too: its logins would otherwise go partly to the provider's own endpoints`);
    if (strategy === 'waad' && !entry.issuer!.includes('{tenant}')) throw new Error('"waad.issuer" must hold {tenant} (replaced by the connection\'s tenant_domain or common)');
    overrides[strategy] = entry;
  }
  return overrides;
}
