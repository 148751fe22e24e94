/**
 * The first run of `npm start` as a new user meets it: the built server
 * (bin/gatehouse.cjs) on a fresh data directory, the default connection
 * `Username-Password-Authentication` ready for a new application (a user
 * signs up and logs in through the hosted pages in Chromium, with no call to
 * set up a connection), the loopback addresses answering for the default
 * tenant, start-up checks that fail before anything is written, and a second
 * database beside the first in the same data directory.
 */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { tempDir } from '../helpers/app.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/postgres.js';
import { freePort, ROOT, startServerProcess, type ServerProcess, type StartOptions } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer } from './support/chromium.js';
import * as client from 'openid-client';
import { readForm, ScriptedBrowser } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken, runNode, type NodeRun } from './support/https.js';

const MAIN = path.join(ROOT, 'bin/gatehouse.cjs');
const PASSWORD = 'Sunny-Meadow-42';
/** As `npm start` runs: new tenants start with the default connection. */
const FIRST_RUN = { GATEHOUSE_DEFAULT_CONNECTION: '1' };

const servers: ServerProcess[] = [];
const dirs: string[] = [];
const databases: TestDatabase[] = [];
const pgAvailable = await postgresAvailable();

async function start(options: StartOptions = {}): Promise<ServerProcess> {
  // A first start on a loaded machine (two cores shared by parallel runs) can take longer than the helper's 30 s.
  const server = await startServerProcess({ timeoutMs: 120_000, ...options, env: { ...FIRST_RUN, ...options.env } });
  servers.push(server);
  if (!dirs.includes(server.dataDir)) dirs.push(server.dataDir);
  return server;
}

after(async () => {
  await cleanUp(servers, dirs);
  for (const db of databases) await db.drop().catch(() => undefined);
});

/** A start that is expected to fail: the launcher run to its exit. */
function failedStart(dataDir: string, port: number, env: Record<string, string> = {}): Promise<NodeRun> {
  return runNode([MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...FIRST_RUN, ...env },
    timeoutMs: 120_000,
  });
}

/** Every file under `dir` with the hash of its contents; undefined when `dir` does not exist. */
function snapshot(dir: string): Record<string, string> | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return files;
}

/** A listener holding a port on all interfaces, as another program would. */
async function occupy(port: number): Promise<net.Server> {
  const holder = net.createServer();
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen({ port, host: '::' }, () => resolve());
  });
  return holder;
}

describe('start-up checks run before anything is written', () => {
  test('a port already taken: exit non-zero naming PORT; a fresh data directory is not created, a used one is left as it was', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    try {
      const fresh = path.join(tempDir('gatehouse-first-run-'), 'data');
      dirs.push(path.dirname(fresh));
      const run = await failedStart(fresh, port);
      assert.notEqual(run.code, 0, 'the start must fail');
      assert.match(run.stderr, /PORT: port \d+ on :: is already in use/);
      assert.equal(fs.existsSync(fresh), false, 'the data directory was created by a start that failed');

      // A data directory of an earlier run: the failed start changes no file in it.
      const earlier = await start();
      assert.equal(await earlier.stop(), 0);
      const before = snapshot(earlier.dataDir);
      assert.ok(before && Object.keys(before).some((f) => f.startsWith('admin-credentials')), 'the earlier run wrote its files');
      const again = await failedStart(earlier.dataDir, port);
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /PORT: port \d+ on :: is already in use/);
      assert.deepEqual(snapshot(earlier.dataDir), before, 'the failed start changed the data directory');
    } finally {
      holder.close();
    }
  });

  test('TLS files that do not belong together, an unreadable one, a data directory that is a file, a wrong master key, an unreachable database: each named', async () => {
    const dir = tempDir('gatehouse-first-run-');
    dirs.push(dir);
    const port = await freePort();
    // A certificate of one key served with another key.
    const earlier = await start();
    assert.equal(await earlier.stop(), 0);
    const otherKey = path.join(dir, 'other-key.pem');
    fs.writeFileSync(otherKey, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const mismatched = await failedStart(path.join(dir, 'data'), port, { TLS_CERT_FILE: earlier.certFile, TLS_KEY_FILE: otherKey });
    assert.notEqual(mismatched.code, 0);
    assert.match(mismatched.stderr, new RegExp(`TLS_KEY_FILE: ${otherKey} is not the private key of the certificate`));
    const missing = await failedStart(path.join(dir, 'data'), port, { TLS_CERT_FILE: path.join(dir, 'nope.pem'), TLS_KEY_FILE: otherKey });
    assert.match(missing.stderr, /TLS_CERT_FILE: .*nope\.pem is not a readable PEM certificate \(ENOENT\)/);

    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const notDir = await failedStart(file, port);
    assert.notEqual(notDir.code, 0);
    assert.match(notDir.stderr, /GATEHOUSE_DATA_DIR: .*a-file is not a directory/);

    const before = snapshot(earlier.dataDir);
    const wrongKey = await failedStart(earlier.dataDir, port, { GATEHOUSE_MASTER_KEY: randomBytes(32).toString('hex') });
    assert.notEqual(wrongKey.code, 0);
    assert.match(wrongKey.stderr, /GATEHOUSE_MASTER_KEY: the master key does not open the secrets sealed in the SQLite database/);
    fs.renameSync(path.join(earlier.dataDir, 'master.key'), path.join(dir, 'master.key'));
    const lostKey = await failedStart(earlier.dataDir, port);
    assert.match(lostKey.stderr, /master\.key: the SQLite database .* holds sealed secrets but there is no master key/);
    assert.equal(fs.existsSync(path.join(earlier.dataDir, 'master.key')), false, 'a new master key was made for a database sealed under another');
    fs.renameSync(path.join(dir, 'master.key'), path.join(earlier.dataDir, 'master.key'));
    assert.deepEqual(snapshot(earlier.dataDir), before);

    if (pgAvailable) {
      const unreachable = await failedStart(path.join(dir, 'pg-data'), port, { DATABASE_URL: `postgres://postgres@127.0.0.1:5432/gatehouse_missing_${randomBytes(4).toString('hex')}` });
      assert.notEqual(unreachable.code, 0);
      assert.match(unreachable.stderr, /DATABASE_URL: the PostgreSQL database is unreachable/);
      assert.equal(fs.existsSync(path.join(dir, 'pg-data')), false);
    }
  });
});

describe('the default tenant on a fresh data directory', () => {
  test('127.0.0.1:PORT and [::1]:PORT answer for it, with their own issuer; other hosts do not', async () => {
    const server = await start();
    const ca = fs.readFileSync(server.certFile);
    for (const host of [`127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      const discovery = await httpsRequest(`https://${host}/.well-known/openid-configuration`, { ca });
      assert.equal(discovery.status, 200, `${host}: ${discovery.text}`);
      assert.equal(discovery.json<{ issuer: string }>().issuer, `https://${host}/`);
    }
    // openid-client's discovery requires the issuer to be the URL it fetched: it is, through the loopback address.
    const viaIp = await client.discovery(new URL(`https://127.0.0.1:${server.port}/`), 'any-client', undefined, undefined, { [client.customFetch]: caFetch(ca) });
    assert.equal(viaIp.serverMetadata().token_endpoint, `https://127.0.0.1:${server.port}/oauth/token`);
    // A Management API token obtained through 127.0.0.1 works there; the audience stays the tenant's.
    const admin = server.admin();
    const viaLoopback = await httpsRequest(`https://127.0.0.1:${server.port}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: admin.audience }),
    });
    assert.equal(viaLoopback.status, 200, viaLoopback.text);
    const token = viaLoopback.json<{ access_token: string }>().access_token;
    assert.equal(decodeJwt(token).iss, `https://127.0.0.1:${server.port}/`);
    const list = await httpsRequest(`https://127.0.0.1:${server.port}/api/v2/connections`, { ca, headers: { authorization: `Bearer ${token}` } });
    assert.equal(list.status, 200, list.text);
    // The default connection is there, as the service creates it.
    assert.deepEqual(list.json<{ name: string; strategy: string }[]>().map((c) => [c.name, c.strategy]), [['Username-Password-Authentication', 'auth0']]);

    const elsewhere = await httpsRequest(`https://127.0.0.1:${server.port}/.well-known/openid-configuration`, { ca, headers: { host: `127.0.0.2:${server.port}` } });
    assert.equal(elsewhere.status, 404);
  });

  test('a new application with openid-client: sign up, then log in, through the hosted pages (form posts), no connection set up by hand', async () => {
    const server = await start();
    const ca = fs.readFileSync(server.certFile);
    const callback = `http://127.0.0.1:${await freePort()}/callback`;
    const management = await managementApi(server);
    // First-party (the default; a third-party one may not use screen_hint and is asked for consent).
    const app = await management('POST', '/clients', {
      name: 'Node App',
      app_type: 'regular_web',
      is_first_party: true,
      token_endpoint_auth_method: 'client_secret_post',
      callbacks: [callback],
    });
    const secret = app.client_secret as string;
    const config = await client.discovery(new URL(`${server.baseUrl}/`), app.client_id as string, secret, client.ClientSecretPost(secret), {
      [client.customFetch]: caFetch(ca),
    });
    const email = `node-${randomBytes(4).toString('hex')}@example.com`;

    /** The flow as the README's example runs it: PKCE, the hosted page's form, the code exchanged by openid-client. */
    async function flow(page: 'signup' | 'login') {
      const browser = new ScriptedBrowser(server.baseUrl, ca);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: callback,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        ...(page === 'signup' && { screen_hint: 'signup' }),
      });
      const shown = await browser.navigate(url);
      assert.equal(shown.hops.at(-1)!.url.pathname, `/${page}`, `${shown.last.status}: ${shown.leftTo?.href ?? shown.last.text.slice(0, 500)}`);
      assert.equal(shown.last.status, 200, shown.last.text.slice(0, 300));
      const form = readForm(shown.last.text, shown.hops.at(-1)!.url);
      const done = await browser.submit(form.action, { ...form.hidden, email, password: PASSWORD });
      assert.ok(done.leftTo, `back to the application, not ${done.last.status}: ${done.last.text.slice(0, 300)}`);
      const tokens = await client.authorizationCodeGrant(config, done.leftTo, { pkceCodeVerifier: verifier, expectedState: state });
      return tokens.claims()!;
    }

    const signedUp = await flow('signup');
    assert.equal(signedUp.email, email);
    const loggedIn = await flow('login');
    assert.equal(loggedIn.sub, signedUp.sub, 'the login finds the account made at signup');
    assert.equal(loggedIn.iss, `${server.baseUrl}/`);
  });

  const skip = chromiumSkipReason();
  test('a new application: a user signs up and logs in through the hosted pages, no connection set up by hand', { skip }, async () => {
    const server = await start();
    const ca = fs.readFileSync(server.certFile);
    const callbackServer = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head><body><h1>Back at the application</h1></body></html>');
    });
    const browser = await launchChromium();
    try {
      const callback = `${callbackServer.origin}/callback`;
      const management = await managementApi(server);
      // The one call a new user makes: create the application (README "Log a user in").
      const app = await management('POST', '/clients', {
        name: 'My First App',
        app_type: 'regular_web',
        is_first_party: true,
        callbacks: [callback],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
      });
      const clientId = app.client_id as string;
      const email = `first-${randomBytes(4).toString('hex')}@example.com`;
      const authorize = (state: string, extra: Record<string, string> = {}) =>
        `${server.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback, scope: 'openid email', state, ...extra })}`;
      const exchange = async (code: string) => {
        const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
          ca,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'authorization_code', client_id: clientId, client_secret: app.client_secret, code, redirect_uri: callback }),
        });
        assert.equal(res.status, 200, res.text);
        return decodeJwt(res.json<{ id_token: string }>().id_token);
      };

      await inScenario(browser, 'first run', async (scenario) => {
        const { page } = scenario;
        await page.goto(authorize('signup', { screen_hint: 'signup' }));
        assert.equal(new URL(page.url()).pathname, '/signup');
        await scenario.shot('signup page');
        await page.getByLabel('Email address', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await Promise.all([page.waitForURL(`${callback}**`), page.getByRole('button', { name: 'Sign up' }).click()]);
        const signedUp = new URL(page.url());
        assert.equal(signedUp.searchParams.get('state'), 'signup', page.url());
        const first = await exchange(signedUp.searchParams.get('code') ?? '');
        assert.equal(first.email, email);
        assert.match(String(first.sub), /^auth0\|/);
        await scenario.shot('signed up');
      });

      // A new browser (no session): the login page, then the callback.
      await inScenario(browser, 'first run login', async (scenario) => {
        const { page } = scenario;
        await page.goto(authorize('login'));
        assert.equal(new URL(page.url()).pathname, '/login');
        await page.getByLabel('Email address', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await Promise.all([page.waitForURL(`${callback}**`), page.getByLabel('Password', { exact: true }).press('Enter')]);
        const loggedIn = new URL(page.url());
        assert.equal(loggedIn.searchParams.get('state'), 'login', page.url());
        assert.equal((await exchange(loggedIn.searchParams.get('code') ?? '')).email, email);
        await scenario.shot('logged in');
      });
    } finally {
      await browser.close();
      await callbackServer.close();
    }
  });

  test(
    'a second database in the same data directory, same default domain: starts, its own credentials file, the first left alone',
    { skip: pgAvailable ? false : 'PostgreSQL is unreachable' },
    async () => {
      const first = await start();
      const shared = path.join(first.dataDir, 'admin-credentials.json');
      const firstCredentials = fs.readFileSync(shared);
      assert.equal(await first.stop(), 0);

      const database = await createTestDatabase();
      databases.push(database);
      const second = await start({ dataDir: first.dataDir, port: first.port, env: { DATABASE_URL: database.url } });
      assert.match(second.output(), /Created the default tenant/);
      assert.ok(fs.readFileSync(shared).equals(firstCredentials), "the first database's admin-credentials.json was overwritten");
      const files = fs.readdirSync(first.dataDir).filter((f) => f.startsWith('admin-credentials-'));
      assert.equal(files.length, 1, `one credentials file for the second database: ${files.join(', ')}`);
      const secondCredentials = JSON.parse(fs.readFileSync(path.join(first.dataDir, files[0]!), 'utf8')) as { client_id: string; database: string };
      assert.match(secondCredentials.database, /^postgres:\/\/127\.0\.0\.1:5432\//);
      assert.doesNotMatch(fs.readFileSync(path.join(first.dataDir, files[0]!), 'utf8'), /postgres:\/\/[^@"]*@/, 'no database credentials in the file');
      assert.match(second.output(), new RegExp(files[0]!.replace(/\./g, '\\.')));
      assert.notEqual(secondCredentials.client_id, (JSON.parse(firstCredentials.toString()) as { client_id: string }).client_id);
      // The first database's credentials still open the first database.
      assert.equal(await second.stop(), 0);
      const back = await start({ dataDir: first.dataDir, port: first.port });
      assert.ok((await managementToken(back)).length > 0);
    },
  );
});
