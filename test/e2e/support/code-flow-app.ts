/**
 * The application of a browser test that logs users in through the hosted
 * pages: a callback page on 127.0.0.1 (and a logged-out page), a
 * first-party regular web client with them, created through the Management
 * API, and openid-client configured for it by discovery over the server's
 * CA (authorization code flow with PKCE, client_secret_basic).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import type { ServerProcess } from '../../helpers/server-process.js';
import { startLocalServer, type ManagementApi, type Scenario } from './chromium.js';
import { caFetch } from './https.js';

export interface CodeFlowApp {
  clientId: string;
  callback: string;
  loggedOut: string;
  config: client.Configuration;
  close(): Promise<void>;
}

/** An authorization request on its way: its URL, and what the application keeps to redeem its code. */
export interface Pending {
  url: string;
  state: string;
  verifier: string;
}

export async function codeFlowApp(server: ServerProcess, management: ManagementApi, name: string): Promise<CodeFlowApp> {
  const pages = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head><body><h1>Signed in</h1></body></html>');
  });
  const callback = `${pages.origin}/callback`;
  const loggedOut = `${pages.origin}/logged-out`;
  const created = await management('POST', '/clients', {
    name,
    is_first_party: true,
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [callback],
    allowed_logout_urls: [loggedOut],
    grant_types: ['authorization_code'],
  });
  const clientId = created.client_id as string;
  const secret = created.client_secret as string;
  const config = await client.discovery(new URL(`${server.baseUrl}/`), clientId, secret, client.ClientSecretBasic(secret), { [client.customFetch]: caFetch(fs.readFileSync(server.certFile)) });
  return { clientId, callback, loggedOut, config, close: () => pages.close() };
}

/** A new authorization request of the application (PKCE S256, a state), with extra parameters (`screen_hint`). */
export async function authorization(app: CodeFlowApp, params: Record<string, string> = {}): Promise<Pending> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(app.config, {
    redirect_uri: app.callback,
    scope: 'openid email',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  });
  return { url: url.href, state, verifier };
}

/** Runs `action` and waits for the navigation it causes. */
export async function navigation(page: Page, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response;
}

/** The application's side of the callback the page is on: openid-client exchanges the code and checks the ID token. */
export async function atCallback(scenario: Scenario, app: CodeFlowApp, pending: Pending, step: string) {
  const url = new URL(scenario.page.url());
  assert.equal(`${url.origin}${url.pathname}`, app.callback, `on the callback, not ${scenario.page.url()}`);
  await scenario.shot(step);
  return client.authorizationCodeGrant(app.config, url, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
}

/** Fills the login page's email and password and submits it. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  return navigation(page, () => page.getByRole('button', { name: 'Log in' }).click());
}
