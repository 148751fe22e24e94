/**
 * Back-channel logout end to end: an `express-openid-connect` application
 * (the library's own `backchannelLogout` support) is logged out when the user
 * logs out through another client, over real HTTPS, with Chromium driving
 * the login. The notification travels the hard way: the application is down
 * when the user logs out, Gatehouse is restarted (on the same data directory)
 * while the notification waits, and the application comes back; the new
 * Gatehouse process delivers it, and the application's session is gone.
 *
 * TLS: one certificate for localhost and 127.0.0.1 made here serves both
 * Gatehouse (placed in its data directory's tls/) and the application; Gatehouse trusts it for its
 * deliveries through GATEHOUSE_BACKCHANNEL_CA_FILE, the application through
 * express-openid-connect's `customFetch`, Chromium by ignoring HTTPS errors.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import eoc from 'express-openid-connect';

const { auth, requiresAuth } = eoc;
import type { Browser } from 'playwright-core';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi } from './support/chromium.js';
import { caFetch, cleanUp, waitFor } from './support/https.js';

const EMAIL = 'employee@example.com';
const PASSWORD = 'Sunny-Meadow-42';

const skip = chromiumSkipReason();
const servers: ServerProcess[] = [];
let server: ServerProcess;
let browser: Browser | undefined;
let dir: string;
let certFile: string;
let tls: { cert: string; key: string };
let rpPort: number;
let rpOrigin: string;
let rp: https.Server | undefined;
let rpClientId: string;
let rpClientSecret: string;
/** The application's cookie secret, the same across its restarts (its sessions are cookies). */
const RP_SECRET = randomBytes(32).toString('hex');
let otherClientId: string;
/** Logout tokens the application accepted (its back-channel logout store). */
const logoutEntries = new Map<string, unknown>();

/** An express-session compatible store: where express-openid-connect keeps the logouts it was told of. */
const logoutStore = {
  get: (key: string, cb: (err: unknown, value?: unknown) => void) => cb(null, logoutEntries.get(key)),
  set: (key: string, value: unknown, cb: (err?: unknown) => void) => {
    logoutEntries.set(key, value);
    cb();
  },
  destroy: (key: string, cb: (err?: unknown) => void) => {
    logoutEntries.delete(key);
    cb();
  },
};

/** The application: express-openid-connect with back-channel logout, and one protected page. */
async function startRp(): Promise<void> {
  const app = express();
  app.use(
    auth({
      issuerBaseURL: server.baseUrl,
      baseURL: rpOrigin,
      clientID: rpClientId,
      clientSecret: rpClientSecret,
      secret: RP_SECRET,
      authRequired: false,
      authorizationParams: { response_type: 'code', scope: 'openid email' },
      backchannelLogout: { store: logoutStore },
      customFetch: caFetch(tls.cert),
    } as Parameters<typeof auth>[0]),
  );
  app.get('/profile', requiresAuth(), (req, res) => {
    res.type('html').send(`<!DOCTYPE html><html lang="en"><head><title>Profile</title></head><body><h1>Signed in as ${String(req.oidc.user?.email)}</h1></body></html>`);
  });
  rp = https.createServer(tls, app);
  await new Promise<void>((resolve) => rp!.listen(rpPort, '127.0.0.1', resolve));
}

function gatehouseEnv(): Record<string, string> {
  return { GATEHOUSE_BACKCHANNEL_CA_FILE: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES };
}

async function stopRp(): Promise<void> {
  await new Promise<void>((resolve) => {
    rp?.closeAllConnections();
    rp ? rp.close(() => resolve()) : resolve();
  });
  rp = undefined;
}

before(async () => {
  if (skip) return;
  // Gatehouse reuses the pair it finds in its data directory's tls/.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bcl-'));
  const material = await createTlsCertificate(['localhost', '127.0.0.1']);
  tls = { cert: material.certPem, key: material.keyPem };
  fs.mkdirSync(path.join(dir, 'tls'), { mode: 0o700 });
  certFile = path.join(dir, 'tls', 'cert.pem');
  fs.writeFileSync(certFile, material.certPem);
  fs.writeFileSync(path.join(dir, 'tls', 'key.pem'), material.keyPem, { mode: 0o600 });
  server = await startServerProcess({ dataDir: dir, env: gatehouseEnv() });
  servers.push(server);
  rpPort = await freePort();
  rpOrigin = `https://127.0.0.1:${rpPort}`;

  const management = await managementApi(server);
  const rpClient = await management('POST', '/clients', {
    name: 'Express RP',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code'],
    callbacks: [`${rpOrigin}/callback`],
    allowed_logout_urls: [rpOrigin],
    oidc_logout: { backchannel_logout_urls: [`${rpOrigin}/backchannel-logout`] },
  });
  rpClientId = rpClient.client_id as string;
  const other = await management('POST', '/clients', {
    name: 'Other app',
    app_type: 'regular_web',
    is_first_party: true,
    callbacks: ['https://other.example.com/callback'],
    allowed_logout_urls: ['https://other.example.com/'],
  });
  otherClientId = other.client_id as string;
  await management('POST', '/connections', { name: 'bcl-users', strategy: 'auth0', enabled_clients: [rpClientId, otherClientId] });
  await management('POST', '/users', { connection: 'bcl-users', email: EMAIL, password: PASSWORD });
  rpClientSecret = rpClient.client_secret as string;
  await startRp();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await stopRp();
  await cleanUp(servers, dir ? [dir] : []);
});

describe('back-channel logout with express-openid-connect', { skip }, () => {
  test('the application is logged out when the user logs out in another client, through its downtime and a Gatehouse restart', async () => {
    await inScenario(browser!, 'back-channel logout: express app', async (scenario) => {
      const { page } = scenario;
      await page.goto(`${rpOrigin}/profile`);
      await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: `Signed in as ${EMAIL}` }).waitFor();
      await scenario.shot('signed in to the app');

      // The application goes down; the user logs out through the other client.
      await stopRp();
      await page.goto(`${server.baseUrl}/v2/logout?client_id=${otherClientId}&returnTo=${encodeURIComponent('https://other.example.com/')}`).catch(() => undefined);
      assert.ok(await waitFor(() => server.output().includes('back-channel logout delivery failed'), 15_000), 'a delivery was attempted while the application was down');

      // Gatehouse restarts on the same data directory; then the application comes back.
      const port = server.port;
      assert.equal(await server.stop(), 0);
      server = await startServerProcess({ dataDir: server.dataDir, port, env: gatehouseEnv() });
      servers.push(server);
      await startRp();
      assert.ok(await waitFor(() => logoutEntries.size > 0, 30_000), 'the new Gatehouse process delivered the logout token');

      // The application's session is over: its protected page sends the user to log in again.
      await page.goto(`${rpOrigin}/profile`);
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
      assert.equal(new URL(page.url()).origin, new URL(server.baseUrl).origin);
      await scenario.shot('sent to log in again');
    });
  });
});
