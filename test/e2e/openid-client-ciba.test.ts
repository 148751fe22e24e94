/**
 * CIBA (OpenID CIBA Core 1.0, poll mode) end to end over real HTTPS:
 * openid-client 6 as a call centre's back office
 * (`initiateBackchannelAuthentication`, `pollBackchannelAuthenticationGrant`)
 * against the built server; the customer approves through the link mailed to
 * them (the server's outbox, `<data dir>/outbox.jsonl`), opened in Chromium,
 * after checking the binding message. Screenshots under
 * test-output/screenshots/ciba-*.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi } from './support/chromium.js';
import { caFetch, cleanUp, waitFor } from './support/https.js';

const EMAIL = 'customer@example.com';
const BINDING_MESSAGE = 'Call 7421: card limit';

const skip = chromiumSkipReason();
let server: ServerProcess;
let browser: Browser | undefined;
let config: client.Configuration;
let userId: string;

/** The approval link of the newest mail to the customer in the server's outbox. */
function mailedLink(): string | undefined {
  const file = path.join(server.dataDir, 'outbox.jsonl');
  if (!fs.existsSync(file)) return undefined;
  const mails = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { to: string; text: string });
  const text = mails.filter((m) => m.to === EMAIL).at(-1)?.text;
  return text && /https:\/\/\S+\/ciba\/approve\?ticket=\S+/.exec(text)?.[0];
}

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  const management = await managementApi(server);
  const created = await management('POST', '/clients', {
    name: 'Call centre',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['urn:openid:params:grant-type:ciba'],
    async_approval_notification_channels: ['email'],
  });
  await management('POST', '/connections', { name: 'customers', strategy: 'auth0', enabled_clients: [created.client_id] });
  userId = (await management('POST', '/users', { connection: 'customers', email: EMAIL, password: 'Sunny-Meadow-42', name: 'Customer' })).user_id as string;
  const secret = created.client_secret as string;
  config = await client.discovery(new URL(`${server.baseUrl}/`), created.client_id as string, secret, client.ClientSecretPost(secret), {
    [client.customFetch]: caFetch(fs.readFileSync(server.certFile)),
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (server) await cleanUp([server], [server.dataDir]);
});

describe('CIBA with openid-client, approved through the mailed link', { skip }, () => {
  test('the back office polls while the customer approves; it gets the customer\'s tokens', async () => {
    const loginHint = JSON.stringify({ format: 'iss_sub', iss: `${server.baseUrl}/`, sub: userId });
    const request = await client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: loginHint, binding_message: BINDING_MESSAGE });
    assert.equal(request.expires_in, 300);
    assert.equal(request.interval, 5);
    const polling = client.pollBackchannelAuthenticationGrant(config, request);

    assert.ok(await waitFor(() => mailedLink() !== undefined, 10_000), 'the approval link was mailed');
    await inScenario(browser!, 'ciba: approve through the mailed link', async (scenario) => {
      const { page } = scenario;
      await page.goto(mailedLink()!);
      assert.equal(await page.locator('#binding-message').textContent(), BINDING_MESSAGE);
      await scenario.shot('approval');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Request approved' }).waitFor();
      await scenario.shot('approved');
    });

    const tokens = await polling;
    assert.equal(tokens.claims()?.sub, userId);
    assert.equal(tokens.claims()?.name, 'Customer');
    assert.ok(tokens.access_token);
  });

  test('a request the customer denies ends the poll with access_denied', async () => {
    const loginHint = JSON.stringify({ format: 'iss_sub', iss: `${server.baseUrl}/`, sub: userId });
    const before = mailedLink();
    const request = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: loginHint, binding_message: 'Not me' });
    const polling = client.pollBackchannelAuthenticationGrant(config, request).then(
      () => assert.fail('expected access_denied'),
      (error: unknown) => error as { error?: string },
    );
    assert.ok(await waitFor(() => mailedLink() !== before, 10_000));
    await inScenario(browser!, 'ciba: deny through the mailed link', async (scenario) => {
      await scenario.page.goto(mailedLink()!);
      await scenario.page.getByRole('button', { name: 'Deny' }).click();
      await scenario.page.getByRole('heading', { name: 'Request denied' }).waitFor();
    });
    assert.equal((await polling).error, 'access_denied');
  });
});
