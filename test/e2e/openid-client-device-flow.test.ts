/**
 * The device authorization flow (RFC 8628) end to end over real HTTPS:
 * openid-client 6 as a TV app (`initiateDeviceAuthorization`,
 * `pollDeviceAuthorizationGrant`) against the built server, while the user
 * approves on /activate in Chromium (./support/chromium.ts): the code from
 * `verification_uri_complete`, confirmed, then the hosted login. The TV gets
 * an ID token for the user, an API access token and a refresh token, which it
 * then uses. Screenshots go to test-output/screenshots/device-flow-*.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi } from './support/chromium.js';
import { caFetch, cleanUp } from './support/https.js';

const EMAIL = 'viewer@example.com';
const PASSWORD = 'Sunny-Meadow-42';
const SCOPE = 'openid profile offline_access watch:shows';

const skip = chromiumSkipReason();
let server: ServerProcess;
let browser: Browser | undefined;
let config: client.Configuration;
let api: string;

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  const management = await managementApi(server);
  api = `https://tv-${randomBytes(4).toString('hex')}.example.com/`;
  await management('POST', '/resource-servers', {
    identifier: api,
    name: 'Shows API',
    allow_offline_access: true,
    skip_consent_for_verifiable_first_party_clients: true,
    scopes: [{ value: 'watch:shows', description: 'Watch shows' }],
  });
  const created = await management('POST', '/clients', {
    name: 'Living room TV',
    app_type: 'native',
    is_first_party: true,
    token_endpoint_auth_method: 'none',
    grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
  });
  const clientId = created.client_id as string;
  await management('POST', '/connections', { name: 'tv-users', strategy: 'auth0', enabled_clients: [clientId] });
  await management('POST', '/users', { connection: 'tv-users', email: EMAIL, password: PASSWORD, name: 'Viewer' });
  config = await client.discovery(new URL(`${server.baseUrl}/`), clientId, undefined, client.None(), {
    [client.customFetch]: caFetch(fs.readFileSync(server.certFile)),
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (server) await cleanUp([server], [server.dataDir]);
});

describe('device authorization flow with openid-client and Chromium', { skip }, () => {
  test('the TV polls while the user approves on /activate; it gets tokens and refreshes them', async () => {
    const authorization = await client.initiateDeviceAuthorization(config, { scope: SCOPE, audience: api });
    assert.match(authorization.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(authorization.verification_uri, `${server.baseUrl}/activate`);
    assert.equal(authorization.interval, 5);
    assert.equal(authorization.expires_in, 900);

    const polling = client.pollDeviceAuthorizationGrant(config, authorization);
    await inScenario(browser!, 'device flow: approve on activate', async (scenario) => {
      const { page } = scenario;
      await page.goto(authorization.verification_uri_complete!);
      await scenario.shot('enter code');
      assert.equal(await page.getByLabel('Code', { exact: true }).inputValue(), authorization.user_code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Device confirmation' }).waitFor();
      assert.equal(await page.locator('#code').textContent(), authorization.user_code);
      await scenario.shot('confirm code');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await scenario.shot('login');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: /you're all set/ }).waitFor();
      await scenario.shot('done');
    });

    const tokens = await polling;
    const claims = tokens.claims();
    assert.equal(claims?.name, 'Viewer');
    assert.equal(claims?.aud, config.clientMetadata().client_id);
    assert.ok(tokens.access_token);
    assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
    assert.equal(tokens.scope, 'openid profile watch:shows offline_access');

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    assert.ok(refreshed.access_token);
    assert.equal(refreshed.claims()?.sub, claims?.sub);
  });

  test('a cancelled request: the poll ends with access_denied', async () => {
    const authorization = await client.initiateDeviceAuthorization(config, { scope: 'openid' });
    const polling = client.pollDeviceAuthorizationGrant(config, authorization).then(
      () => assert.fail('expected access_denied'),
      (error: unknown) => error as { error?: string },
    );
    await inScenario(browser!, 'device flow: cancel on activate', async (scenario) => {
      const { page } = scenario;
      await page.goto(authorization.verification_uri);
      await page.getByLabel('Code', { exact: true }).fill(authorization.user_code.toLowerCase().replace('-', ''));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'Device not activated' }).waitFor();
      await scenario.shot('cancelled');
    });
    assert.equal((await polling).error, 'access_denied');
  });
});
