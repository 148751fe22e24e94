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
  redirect?: { url: string; actionIndex?: number };
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
      stats: { logins_count: input.loginsCount },
      tenant: { id: input.tenant.id },
    };
  },

  start: () => ({ idTokenClaims: {}, accessTokenClaims: {}, addScopes: [], removeScopes: [], appMetadata: {}, userMetadata: {}, transactionMetadata: {} }),

  apply(outcome, { method, args }, input) {
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
        if (!input.canRedirect) throw new ActionCommandError('Redirects are not possible in this flow (prompt=none or a token endpoint grant).');
        const target = new URL(stringArg(args[0], 'The redirect URL', 2048));
        if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new ActionCommandError('The redirect URL must be http(s).');
        const query = (args[1] as { query?: Record<string, unknown> } | null)?.query ?? {};
        for (const [key, value] of Object.entries(query)) target.searchParams.set(key, String(value));
        outcome.redirect = { url: target.href };
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

  stops: (outcome) => outcome.deny !== undefined || outcome.redirect !== undefined,
};

/** What post-login changes in the tokens: carried to issuance (with an authorization code, until it is redeemed). */
export type TokenChanges = Pick<PostLoginOutcome, 'idTokenClaims' | 'accessTokenClaims' | 'addScopes' | 'removeScopes'>;

/** The granted scopes with the actions' additions and removals. */
export function changedScopes(granted: readonly string[], changes: TokenChanges | undefined): string[] {
  if (!changes) return [...granted];
  return [...new Set([...granted.filter((scope) => !changes.removeScopes.includes(scope)), ...changes.addScopes])];
}
