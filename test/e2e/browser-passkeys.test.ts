/**
 * Passkeys as a first factor in a real browser: Chromium (playwright-core)
 * with a CDP virtual authenticator (`WebAuthn.addVirtualAuthenticator`:
 * CTAP2, internal transport, resident keys, user verification that
 * succeeds, as a phone's or laptop's platform authenticator), against the
 * built server over HTTPS, with openid-client as the application
 * (authorization code flow with PKCE, RP-initiated logout).
 *
 * A new user signs up with their email and a passkey alone, logs out
 * (openid-client's end-session URL), and logs in with "Continue with a
 * passkey"; a new browser holding the passkey is offered it by the browser
 * in the identifier field (conditional mediation), which logs in without
 * a click on the button. The passkey pages are photographed in light and
 * dark mode and axe-core reports nothing on them. Screenshots under
 * test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import type { Browser, CDPSession } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { axeViolations } from './support/axe.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, type ManagementApi, type Scenario } from './support/chromium.js';
import { atCallback, authorization, codeFlowApp, navigation, type CodeFlowApp } from './support/code-flow-app.js';
import { cleanUp } from './support/https.js';

const CONNECTION = 'passkey-browser-users';

const skip = chromiumSkipReason();
let server: ServerProcess;
let app: CodeFlowApp;
let management: ManagementApi;
let browser: Browser | undefined;
let connectionId: string;

const passkeyOptions = (challengeUi: 'both' | 'button' | 'autofill') => ({
  authentication_methods: { password: { enabled: true }, passkey: { enabled: true } },
  passkey_options: { challenge_ui: challengeUi, progressive_enrollment_enabled: true, local_enrollment_enabled: false },
});

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  management = await managementApi(server);
  app = await codeFlowApp(server, management, 'Passkey Browser App');
  connectionId = (await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [app.clientId], options: passkeyOptions('button') })).id as string;
});

after(async () => {
  await browser?.close();
  await app?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** A platform authenticator in this page's browser context: CTAP2, internal, resident keys, the user verified at each use. */
async function platformAuthenticator(scenario: Scenario): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await scenario.context.newCDPSession(scenario.page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

/** The page photographed in light and dark mode, axe-core reporting nothing in either. */
async function lightAndDark(scenario: Scenario, step: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await scenario.page.emulateMedia({ colorScheme });
    await scenario.shot(`${step} (${colorScheme})`);
    assert.deepEqual(await axeViolations(scenario.page), [], `${step}, ${colorScheme}: axe reports nothing`);
  }
  await scenario.page.emulateMedia({ colorScheme: 'light' });
}

type VirtualCredential = { credentialId: string; isResidentCredential: boolean; privateKey: string; signCount: number; rpId?: string; userHandle?: string };

describe('passkeys as a first factor, in Chromium', { skip }, () => {
  const email = `passkey-${randomBytes(4).toString('hex')}@example.com`;
  let userId: string;
  let credential: VirtualCredential;

  test('signs up with a passkey only, logs out, and logs in with the passkey button through openid-client', async () => {
    await inScenario(browser!, 'passkey signup logout login', async (scenario) => {
      const { page } = scenario;
      const key = await platformAuthenticator(scenario);
      const signup = await authorization(app, { screen_hint: 'signup' });
      await page.goto(signup.url);
      assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no password asked');
      await lightAndDark(scenario, 'signup: email first');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await navigation(page, () => page.getByRole('button', { name: 'Continue' }).click());
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Create a passkey');
      await lightAndDark(scenario, 'signup: create a passkey');
      await navigation(page, () => page.getByRole('button', { name: 'Create a passkey' }).click());
      const tokens = await atCallback(scenario, app, signup, 'signed up: callback');
      const claims = tokens.claims()!;
      assert.equal(claims.email, email);
      userId = claims.sub;

      const { credentials } = (await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })) as { credentials: VirtualCredential[] };
      assert.equal(credentials.length, 1, 'the authenticator holds one passkey');
      credential = credentials[0]!;
      assert.equal(credential.isResidentCredential, true, 'a discoverable credential');
      assert.equal(credential.rpId, 'localhost', 'the relying party is the tenant’s host');
      assert.equal(Buffer.from(credential.userHandle!, 'base64').toString('utf8'), userId, 'the user handle is the user id');

      // Log out through the end-session URL: the session ends, the next authorization shows the login page.
      const endSession = client.buildEndSessionUrl(app.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: app.loggedOut });
      await page.goto(endSession.href);
      assert.equal(`${new URL(page.url()).origin}${new URL(page.url()).pathname}`, app.loggedOut);

      const login = await authorization(app);
      await page.goto(login.url);
      assert.equal(new URL(page.url()).pathname, '/login', 'logged out: the login page');
      await lightAndDark(scenario, 'login with the passkey button');
      await navigation(page, () => page.getByRole('button', { name: 'Continue with a passkey' }).click());
      const again = (await atCallback(scenario, app, login, 'logged in with the passkey: callback')).claims()!;
      assert.equal(again.sub, userId);
      // The passkey as it is now (its counter moved on), for another browser to hold.
      credential = ((await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })) as { credentials: VirtualCredential[] }).credentials[0]!;
    });
    const methods = (await management('GET', `/users/${encodeURIComponent(userId)}/authentication-methods`)) as unknown as { type: string; key_id?: string }[];
    assert.deepEqual(methods.map((m) => [m.type, m.key_id]), [['passkey', Buffer.from(credential.credentialId, 'base64').toString('base64url')]]);
  });

  test('conditional UI: a new browser holding the passkey is offered it in the identifier field, and logs in with it', async () => {
    await management('PATCH', `/connections/${connectionId}`, { options: passkeyOptions('both') });
    await inScenario(browser!, 'passkey conditional ui', async (scenario) => {
      const { page } = scenario;
      const key = await platformAuthenticator(scenario);
      await key.cdp.send('WebAuthn.addCredential', { authenticatorId: key.authenticatorId, credential });
      const login = await authorization(app);
      const posts: number[] = [];
      page.on('response', (response) => {
        if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/login/passkey') posts.push(response.status());
      });
      // The login page asks at once for conditional mediation; Chromium's virtual authenticator answers it with its
      // passkey without UI, standing in for the user choosing the passkey from the identifier field's autofill.
      // What the identifier field offers, read in a browser without the passkey (where nothing answers the
      // request): in this one the answer can move the page on before its HTML is read.
      const bare = await browser!.newContext({ ignoreHTTPSErrors: true });
      try {
        const other = await bare.newPage();
        await other.goto((await authorization(app)).url);
        assert.equal(await other.locator('#username').getAttribute('autocomplete'), 'username webauthn', 'the identifier field offers passkeys');
        assert.equal(await other.locator('form[data-webauthn-conditional="true"]').count(), 1);
      } finally {
        await bare.close();
      }
      await page.goto(login.url).catch(() => undefined);
      await page.waitForURL((url) => url.href.startsWith(app.callback));
      assert.deepEqual(posts, [302], 'one passkey answer, sent without a click, accepted');
      const claims = (await atCallback(scenario, app, login, 'logged in from the identifier field: callback')).claims()!;
      assert.equal(claims.sub, userId);
    });
  });
});
