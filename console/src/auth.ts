/**
 * The operator's login: authorization code with PKCE through auth0-spa-js,
 * tokens in memory only. A reload goes through /authorize again, which the
 * SSO session answers at once; no silent iframe is relied on.
 */
import { createAuth0Client, type Auth0Client } from '@auth0/auth0-spa-js';
import type { ConsoleConfig } from '../../src/authentication/console/config-shape.js';

export type Session =
  | { kind: 'signed-in'; client: Auth0Client; config: ConsoleConfig; token: () => Promise<string>; user: { name?: string; email?: string } | undefined }
  | { kind: 'refused'; client: Auth0Client | undefined; config: ConsoleConfig | undefined; error: string; description: string }
  | { kind: 'redirecting' };

/** An OAuth error as auth0-spa-js throws it (GenericError: `error`, `error_description`). */
function oauthError(error: unknown): { error: string; description: string } {
  const e = error as { error?: unknown; error_description?: unknown; message?: unknown };
  return {
    error: typeof e.error === 'string' ? e.error : 'error',
    description: typeof e.error_description === 'string' ? e.error_description : typeof e.message === 'string' ? e.message : String(error),
  };
}

async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch('/admin/config.json', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`The console's configuration could not be loaded (${res.status}).`);
  return (await res.json()) as ConsoleConfig;
}

/**
 * The access token from auth0-spa-js's memory cache. Once it has expired the
 * library would ask a hidden iframe; when that cannot answer (no session,
 * or a browser that keeps cookies from frames), the operator goes through
 * /authorize again and comes back to the same page.
 */
async function currentToken(client: Auth0Client): Promise<string> {
  try {
    return (await client.getTokenSilently()) ?? '';
  } catch (error) {
    const code = oauthError(error).error;
    if (code !== 'login_required' && code !== 'consent_required' && code !== 'interaction_required' && code !== 'timeout') throw error;
    await client.loginWithRedirect({ appState: { hash: location.hash } });
    // The page is leaving: nothing waits for this call.
    return new Promise<string>(() => undefined);
  }
}

export async function signIn(): Promise<Session> {
  let config: ConsoleConfig | undefined;
  let client: Auth0Client | undefined;
  try {
    config = await loadConfig();
    client = await createAuth0Client({
      domain: config.domain,
      clientId: config.client_id,
      authorizationParams: { redirect_uri: config.redirect_uri, audience: config.audience, scope: config.scope },
      cacheLocation: 'memory',
    });
    const params = new URLSearchParams(location.search);
    if (params.has('error')) {
      // /authorize refused before any code (e.g. access_denied for a user who is not an operator).
      const refused = { error: params.get('error') ?? 'error', description: params.get('error_description') ?? '' };
      history.replaceState(null, '', '/admin/');
      return { kind: 'refused', client, config, ...refused };
    }
    if (params.has('code') && params.has('state')) {
      const { appState } = await client.handleRedirectCallback<{ hash?: string }>();
      history.replaceState(null, '', `/admin/${appState?.hash ?? ''}`);
    } else if (!(await client.isAuthenticated())) {
      await client.loginWithRedirect({ appState: { hash: location.hash } });
      return { kind: 'redirecting' };
    }
    const signedIn = client;
    return { kind: 'signed-in', client, config, token: () => currentToken(signedIn), user: await client.getUser() };
  } catch (error) {
    history.replaceState(null, '', '/admin/');
    return { kind: 'refused', client, config, ...oauthError(error) };
  }
}

export function logOut(client: Auth0Client | undefined, config: ConsoleConfig | undefined): void {
  const returnTo = config ? new URL('/admin/', config.redirect_uri).href : `${location.origin}/admin/`;
  if (client) void client.logout({ logoutParams: { returnTo } });
  else location.assign(returnTo);
}
