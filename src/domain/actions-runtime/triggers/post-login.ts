/**
 * post-login (v3), actions-wire-notes §2.3: runs once every interaction step
 * succeeded, before the code or tokens are issued. Claims for both tokens
 * (./claims.ts rules), scopes added and removed, `access.deny`,
 * `multifactor.enable` (the MFA step then runs), `redirect.sendUserTo`
 * (the flow suspends; /continue resumes it with `onContinuePostLogin`),
 * metadata written once at the end, transaction metadata.
 */
import { setClaim } from '../claims.js';
import { ActionCommandError, setMetadata, stringArg, type TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';
import type { RiskAssessment } from '../../risk-assessments/rows.js';

export interface PostLoginInput {
  tenant: { id: string };
  user: Record<string, unknown>;
  client: { client_id: string; name: string; metadata: Record<string, unknown> };
  connection: { id: string; name: string; strategy: string; metadata?: Record<string, unknown> };
  request: EventRequest;
  transaction: Record<string, unknown> & { protocol: string; requested_scopes: string[] };
  organization?: { id: string; name: string; display_name?: string; metadata: Record<string, unknown> };
  roles: string[];
  loginsCount: number;
  /** The audience of the access token, and whether it is one of the tenant's own APIs (namespaced claims only). */
  resourceServer?: { identifier: string; system: boolean };
  /** Whether the flow can send the browser away (not under prompt=none, not at the token endpoint). */
  canRedirect: boolean;
  /** At `/continue`: its `state` and its query and body merged, which `api.redirect.validateToken` reads. */
  continued?: { state: string; params: Record<string, unknown> };
  /** `event.authentication`: the session's methods and the risk assessment of the login that started it (interactive logins). */
  authentication?: { methods: { name: string; timestamp: string }[]; riskAssessment?: RiskAssessment };
}

export interface PostLoginOutcome {
  idTokenClaims: Record<string, unknown>;
  accessTokenClaims: Record<string, unknown>;
  addScopes: string[];
  removeScopes: string[];
  deny?: string;
  multifactor?: { provider: string; allowRememberBrowser: boolean };
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  transactionMetadata: Record<string, unknown>;
  /** `api.redirect.sendUserTo`: where the browser goes, and the action (its version) whose `onContinuePostLogin` resumes the login. */
  redirect?: { url: string; versionId: string };
  /** A redirect asked under `prompt=none`: the login ends with `interaction_required` (actions-wire-notes §2.3). */
  interactionRequired?: true;
}

const MFA_PROVIDERS = new Set(['any', 'none', 'guardian', 'google-authenticator', 'duo']);

export const postLogin: TriggerModule<PostLoginInput, PostLoginOutcome> = {
  id: 'post-login',
  version: 'v3',
  handler: 'onExecutePostLogin',
  blocking: true,
  methods: [
    'access.deny',
    'idToken.setCustomClaim',
    'accessToken.setCustomClaim',
    'accessToken.addScope',
    'accessToken.removeScope',
    'multifactor.enable',
    'redirect.sendUserTo',
    'user.setAppMetadata',
    'user.setUserMetadata',
    'transaction.setMetadata',
  ],
  values: (input) => ({ 'redirect.canRedirect': input.canRedirect }),
  tokens: (input) => ({
    issuer: input.request.hostname ?? '',
    subject: String(input.user.user_id ?? ''),
    ip: input.request.ip,
    ...(input.continued && { state: input.continued.state, params: input.continued.params }),
  }),

  event(input) {
    return {
      user: input.user,
      client: input.client,
      connection: input.connection,
      request: input.request,
      transaction: input.transaction,
      authorization: { roles: input.roles },
      ...(input.organization && { organization: input.organization }),
      ...(input.resourceServer && { resource_server: { identifier: input.resourceServer.identifier } }),
      ...(input.authentication && { authentication: input.authentication }),
      stats: { logins_count: input.loginsCount },
      tenant: { id: input.tenant.id },
    };
  },

  start: () => ({ idTokenClaims: {}, accessTokenClaims: {}, addScopes: [], removeScopes: [], appMetadata: {}, userMetadata: {}, transactionMetadata: {} }),

  apply(outcome, { method, args }, input, action) {
    switch (method) {
      case 'access.deny':
        outcome.deny = typeof args[0] === 'string' ? args[0].slice(0, 1024) : 'Access denied';
        return;
      case 'idToken.setCustomClaim':
        return setClaim(outcome.idTokenClaims, args[0], args[1], { namespacedOnly: false });
      case 'accessToken.setCustomClaim':
        return setClaim(outcome.accessTokenClaims, args[0], args[1], { namespacedOnly: input.resourceServer?.system === true });
      case 'accessToken.addScope':
      case 'accessToken.removeScope': {
        const scope = stringArg(args[0], 'A scope', 280);
        if (/\s/.test(scope)) throw new ActionCommandError('A scope must not contain whitespace.');
        const [into, from] = method === 'accessToken.addScope' ? [outcome.addScopes, outcome.removeScopes] : [outcome.removeScopes, outcome.addScopes];
        if (!into.includes(scope)) into.push(scope);
        if (from.includes(scope)) from.splice(from.indexOf(scope), 1);
        return;
      }
      case 'multifactor.enable': {
        const provider = stringArg(args[0], 'The multifactor provider', 64);
        if (!MFA_PROVIDERS.has(provider)) throw new ActionCommandError(`Unknown multifactor provider "${provider}".`);
        const options = (args[1] ?? {}) as { allowRememberBrowser?: unknown };
        outcome.multifactor = { provider, allowRememberBrowser: options.allowRememberBrowser === true };
        return;
      }
      case 'redirect.sendUserTo': {
        if (!input.canRedirect) {
          if (input.transaction.prompt === 'none') {
            outcome.interactionRequired = true;
            return;
          }
          throw new ActionCommandError('Redirects are not possible in this flow (a token endpoint grant).');
        }
        outcome.redirect = { url: redirectTarget(args[0], args[1]), versionId: action.versionId };
        return;
      }
      case 'user.setAppMetadata':
        return setMetadata(outcome.appMetadata, args[0], args[1]);
      case 'user.setUserMetadata':
        return setMetadata(outcome.userMetadata, args[0], args[1]);
      case 'transaction.setMetadata':
        return setMetadata(outcome.transactionMetadata, args[0], args[1]);
    }
  },

  stops: (outcome) => outcome.deny !== undefined || outcome.redirect !== undefined || outcome.interactionRequired === true,
};

/**
 * Where `api.redirect.sendUserTo(url, {query})` sends the browser: the
 * service lets an action send it to any URL it names, so any `https:` URL
 * is taken (the tenant's code chooses it, as its own site); `http:` only to
 * a loopback host (a page on the same machine); never another scheme
 * (`javascript:`, `data:`, …), nor a URL with credentials. `query` is
 * merged into the URL's query; `state` is the server's own, set last.
 */
export function redirectTarget(url: unknown, options: unknown): string {
  let target: URL;
  try {
    target = new URL(stringArg(url, 'The redirect URL', 2048));
  } catch (error) {
    if (error instanceof ActionCommandError) throw error;
    throw new ActionCommandError('api.redirect.sendUserTo: the URL is not an absolute URL.');
  }
  const loopback = target.hostname === 'localhost' || target.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(target.hostname);
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && loopback)) throw new ActionCommandError('api.redirect.sendUserTo: the URL must be https (http only to a loopback address).');
  if (target.username !== '' || target.password !== '') throw new ActionCommandError('api.redirect.sendUserTo: the URL must not carry credentials.');
  const query = (options as { query?: unknown } | null)?.query;
  if (query !== undefined && query !== null) {
    if (typeof query !== 'object' || Array.isArray(query)) throw new ActionCommandError('api.redirect.sendUserTo: query must be an object.');
    for (const [key, value] of Object.entries(query)) if (key !== 'state') target.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  target.searchParams.delete('state');
  if (target.href.length > 4096) throw new ActionCommandError('api.redirect.sendUserTo: the URL is too long.');
  return target.href;
}

/** What post-login changes in the tokens: carried to issuance (with an authorization code, until it is redeemed). */
export type TokenChanges = Pick<PostLoginOutcome, 'idTokenClaims' | 'accessTokenClaims' | 'addScopes' | 'removeScopes'>;

/** The granted scopes with the actions' additions and removals. */
export function changedScopes(granted: readonly string[], changes: TokenChanges | undefined): string[] {
  if (!changes) return [...granted];
  return [...new Set([...granted.filter((scope) => !changes.removeScopes.includes(scope)), ...changes.addScopes])];
}
