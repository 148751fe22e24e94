/**
 * An application in the browser tests as openid-client makes it: a callback
 * page on 127.0.0.1, a first-party regular web client (client_secret_basic,
 * authorization code) created through the Management API, discovery over
 * the server's certificate; authorizations with PKCE, and the callback's
 * code exchanged by openid-client (which checks the ID token). Also the
 * hosted login page's form, filled as a person does.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import type { ServerProcess } from '../../helpers/server-process.js';
import { startLocalServer, type LocalServer, type ManagementApi, type Scenario } from './chromium.js';
import { caFetch } from './https.js';

export interface OpenidApp {
  callbackServer: LocalServer;
  callback: string;
  clientId: string;
  config: client.Configuration;
}

export interface PendingAuthorization {
  url: string;
  state: string;
  verifier: string;
}

export async function openidApp(server: ServerProcess, management: ManagementApi, name: string): Promise<OpenidApp> {
  const callbackServer = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head><body><h1>Signed in</h1></body></html>');
  });
  const callback = `${callbackServer.origin}/callback`;
  const created = await management('POST', '/clients', {
    name,
    is_first_party: true,
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  });
  const clientId = created.client_id as string;
  const secret = created.client_secret as string;
  const config = await client.discovery(new URL(`${server.baseUrl}/`), clientId, secret, client.ClientSecretBasic(secret), { [client.customFetch]: caFetch(fs.readFileSync(server.certFile)) });
  return { callbackServer, callback, clientId, config };
}

/** An authorization URL with PKCE and a state (`scope: openid email` unless `extra` says otherwise). */
export async function pkceAuthorization(app: OpenidApp, extra: Record<string, string> = {}): Promise<PendingAuthorization> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(app.config, {
    redirect_uri: app.callback,
    scope: 'openid email',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url: url.href, state, verifier };
}

/** On the callback: openid-client exchanges the code and checks the ID token; a screenshot named `step`. */
export async function callbackTokens(scenario: Scenario, app: OpenidApp, pending: PendingAuthorization, step: string) {
  const url = new URL(scenario.page.url());
  assert.equal(`${url.origin}${url.pathname}`, app.callback, `on the callback, not ${scenario.page.url()}`);
  await scenario.shot(step);
  return client.authorizationCodeGrant(app.config, url, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
}

/** Waits for the navigation `action` starts; its response. */
export async function navigation(page: Page, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response;
}

/** Fills the login page's email and password and submits it. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  return navigation(page, () => page.getByRole('button', { name: 'Log in' }).click());
}
