/**
 * Passwordless email login in a real browser (Chromium) against the built
 * server over HTTPS:
 *
 * - the hosted page: the user enters an address, reads the code from the
 *   server's outbox file (as from a mailbox), enters it, and lands on the
 *   application's callback signed in as the `email|…` user;
 * - the magic link: the application starts the login with
 *   POST /passwordless/start (`send: "link"`), the link is read from the
 *   outbox and opened in the browser, which lands on the callback signed in;
 *   the same link opened again lands there with `access_denied`.
 *
 * Screenshots under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp, httpsRequest, waitFor } from './support/https.js';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let callbackServer: LocalServer;
let callback: string;
let management: ManagementApi;
let browser: Browser | undefined;
let clientId: string;
let clientSecret: string;

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  callbackServer = await startLocalServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head><body><h1>${query.has('code') ? 'Signed in' : 'Not signed in'}</h1></body></html>`);
  });
  callback = `${callbackServer.origin}/callback`;
  management = await managementApi(server);
  const created = await management('POST', '/clients', {
    name: 'Passwordless Browser App',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  });
  clientId = created.client_id as string;
  clientSecret = created.client_secret as string;
  await management('POST', '/connections', { name: 'email', strategy: 'email', enabled_clients: [clientId] });
});

after(async () => {
  await browser?.close();
  await callbackServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** The newest code mailed to `email`. */
async function codeFor(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  let code: string | undefined;
  await waitFor(() => {
    if (!fs.existsSync(outbox)) return false;
    const mails = fs.readFileSync(outbox, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { to: string; text: string });
    code = /code for .* is (\d+)/.exec(mails.filter((m) => m.to === email).at(-1)?.text ?? '')?.[1];
    return code !== undefined;
  }, 10_000);
  assert.ok(code, `a code mailed to ${email}`);
  return code;
}

async function exchange(code: string | null): Promise<Record<string, unknown>> {
  const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
    ca,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code, redirect_uri: callback }),
  });
  assert.equal(res.status, 200, res.text);
  return decodeJwt(res.json<{ id_token: string }>().id_token);
}

async function linkFor(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  let link: string | undefined;
  await waitFor(() => {
    if (!fs.existsSync(outbox)) return false;
    const mails = fs.readFileSync(outbox, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { to: string; text: string });
    link = /https:\/\/\S+\/passwordless\/verify_redirect\?\S+/.exec(mails.filter((m) => m.to === email).at(-1)?.text ?? '')?.[0];
    return link !== undefined;
  }, 10_000);
  assert.ok(link, `a link mailed to ${email}`);
  return link;
}

describe('passwordless email login, in Chromium', { skip }, () => {
  test('the hosted page: the address, the code from the mailbox, the callback', async () => {
    const email = `code-${randomBytes(4).toString('hex')}@example.com`;
    const state = randomBytes(12).toString('base64url');
    const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback, scope: 'openid email', state });
    await inScenario(browser!, 'passwordless code', async (scenario) => {
      const { page } = scenario;
      await page.goto(`${server.baseUrl}/authorize?${params}`);
      assert.equal(new URL(page.url()).pathname, '/passwordless/login');
      await scenario.shot('address page');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Email me a code' }).click()]);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Check your email');
      await scenario.shot('code page');
      await page.getByLabel('Code', { exact: true }).fill(await codeFor(email));
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log in' }).click()]);
      const url = new URL(page.url());
      assert.equal(`${url.origin}${url.pathname}`, callback, `on the callback, not ${page.url()}`);
      assert.equal(url.searchParams.get('state'), state);
      await scenario.shot('signed in by the code');
      const claims = await exchange(url.searchParams.get('code'));
      assert.equal(claims.email, email);
      assert.match(claims.sub as string, /^email\|/);
    });
  });

  test('the mailed link logs the user in at the application; opened again it is refused', async () => {
    const email = `link-${randomBytes(4).toString('hex')}@example.com`;
    const state = randomBytes(12).toString('base64url');
    const started = await httpsRequest(`${server.baseUrl}/passwordless/start`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        client_secret: clientSecret,
        connection: 'email',
        email,
        send: 'link',
        authParams: { redirect_uri: callback, response_type: 'code', scope: 'openid email', state },
      }),
    });
    assert.equal(started.status, 200, started.text);
    const link = await linkFor(email);

    await inScenario(browser!, 'passwordless magic link', async (scenario) => {
      const { page } = scenario;
      await page.goto(link);
      const url = new URL(page.url());
      assert.equal(`${url.origin}${url.pathname}`, callback, `on the callback, not ${page.url()}`);
      assert.equal(url.searchParams.get('state'), state);
      await scenario.shot('signed in by the link');
      const claims = await exchange(url.searchParams.get('code'));
      assert.equal(claims.email, email);
      assert.match(claims.sub as string, /^email\|/);

      await page.goto(link);
      const again = new URL(page.url());
      assert.equal(again.searchParams.get('error'), 'access_denied');
      assert.equal(again.searchParams.get('code'), null);
      await scenario.shot('the link a second time');
    });
  });
});
