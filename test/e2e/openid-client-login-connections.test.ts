/**
 * Which database connection the hosted pages use when an application has
 * several, and /authorize's answer to a `connection` it cannot use: openid-
 * client builds the authorization URLs and redeems the codes, a scripted
 * browser (./support/browser.ts) drives the pages, against the built server
 * over real HTTPS.
 *
 * The tenant is set up as the service sets up a new one and an operator goes
 * on from there: the server starts with `Username-Password-Authentication`
 * and `enable_client_connections` (GATEHOUSE_DEFAULT_CONNECTION=1), the
 * operator adds a database connection of their own, and a new application is
 * enabled on both. The order (src/domain/connections/login-connection.ts):
 * the request's `connection`, else the tenant's `default_directory` when it
 * is enabled for the client, else the oldest database connection of the
 * client; only a client with none is refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { readForm, ScriptedBrowser, type Navigation } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken, waitFor } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const NEW_PASSWORD = 'Quiet-River-77';
const DEFAULT_CONNECTION = 'Username-Password-Authentication';
/** The operator's own database connection, created after the default one. */
const OWN_CONNECTION = 'partner-users';
/** A database connection of the tenant that the application is not enabled on. */
const OTHER_CONNECTION = 'elsewhere-users';
const ALICE = 'alice@example.com';
const BOB = 'bob@partner.example';
const NOT_FOUND = 'the connection was not found';

interface App {
  clientId: string;
  config: client.Configuration;
}

let server: ServerProcess;
let ca: Buffer;
let issuer: URL;
let callback: string;
let token: string;
/** Enabled on the default connection and the operator's own. */
let app: App;
/** Enabled on no database connection. */
let noDatabase: App;
let aliceId: string;
let bobId: string;

async function management(method: string, apiPath: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, {
    ca,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${apiPath}: ${res.status} ${res.text}`);
  return res.text === '' ? {} : res.json<Record<string, unknown>>();
}

async function createApp(name: string): Promise<App> {
  const created = await management('POST', '/clients', {
    name,
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  });
  const clientId = created.client_id as string;
  const secret = created.client_secret as string;
  const config = await client.discovery(issuer, clientId, secret, client.ClientSecretBasic(secret), { [client.customFetch]: caFetch(ca) });
  return { clientId, config };
}

async function connectionId(name: string): Promise<string> {
  const list = (await management('GET', `/connections?name=${encodeURIComponent(name)}`)) as unknown as { id: string; name: string }[];
  const found = list.find((c) => c.name === name);
  assert.ok(found, `connection ${name}`);
  return found.id;
}

async function clientsOf(connection: string): Promise<string[]> {
  const body = await management('GET', `/connections/${await connectionId(connection)}/clients`);
  return (body.clients as { client_id: string }[]).map((c) => c.client_id);
}

async function setDefaultDirectory(name: string): Promise<void> {
  await management('PATCH', '/tenants/settings', { default_directory: name });
}

/** What the application keeps between its redirect to /authorize and its callback. */
interface Pending {
  url: URL;
  pkceCodeVerifier: string;
  expectedState: string;
  expectedNonce: string;
}

async function startAuthorization(target: App, extra: Record<string, string> = {}): Promise<Pending> {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(target.config, {
    redirect_uri: callback,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
    ...extra,
  });
  return { url, pkceCodeVerifier, expectedState, expectedNonce };
}

/** /authorize → the page it sends the browser to (login, or signup with screen_hint). */
async function openPage(browser: ScriptedBrowser, pending: Pending, pathname: '/login' | '/signup'): Promise<Navigation> {
  const opened = await browser.navigate(pending.url);
  assert.equal(opened.leftTo, undefined, `a page, not a redirect to ${opened.leftTo?.href}`);
  assert.equal(opened.hops.at(-1)!.url.pathname, pathname);
  assert.equal(opened.last.status, 200, opened.last.text.slice(0, 300));
  return opened;
}

/** Posts the page's first form with these fields. */
function submit(browser: ScriptedBrowser, page: Navigation, fields: Record<string, string>): Promise<Navigation> {
  const form = readForm(page.last.text, page.hops.at(-1)!.url);
  return browser.submit(form.action, { ...form.hidden, ...fields });
}

/** The ID token's subject after the callback, through openid-client's code exchange. */
async function subjectAfter(target: App, pending: Pending, done: Navigation): Promise<string> {
  assert.ok(done.leftTo, `expected the callback, got ${done.last.status}: ${done.last.text.slice(0, 400)}`);
  const tokens = await client.authorizationCodeGrant(target.config, done.leftTo, pending);
  return tokens.claims()!.sub;
}

/** Logs in through the login page; the subject of the ID token. */
async function logIn(target: App, email: string, password: string, extra: Record<string, string> = {}): Promise<string> {
  const browser = new ScriptedBrowser(issuer.origin, ca);
  const pending = await startAuthorization(target, extra);
  const page = await openPage(browser, pending, '/login');
  return subjectAfter(target, pending, await submit(browser, page, { username: email, password }));
}

/** A login the page refuses: 400 and the page's alert. */
async function refusedLogin(target: App, email: string, password: string, extra: Record<string, string> = {}): Promise<string> {
  const browser = new ScriptedBrowser(issuer.origin, ca);
  const page = await openPage(browser, await startAuthorization(target, extra), '/login');
  const refused = await submit(browser, page, { username: email, password });
  assert.equal(refused.leftTo, undefined);
  assert.equal(refused.last.status, 400);
  return alertOf(refused.last.text);
}

function alertOf(html: string): string {
  const alert = /<[^>]*role="alert"[^>]*>([\s\S]*?)<\/[a-z]+>/.exec(html)?.[1] ?? '';
  return alert.replace(/<[^>]*>/g, '').replace(/&#39;/g, "'").trim();
}

/** The user's identities: which connection holds them. */
async function connectionsOf(email: string): Promise<string[]> {
  const users = (await management('GET', `/users-by-email?email=${encodeURIComponent(email)}`)) as unknown as { identities: { connection: string }[] }[];
  return users.flatMap((u) => u.identities.map((i) => i.connection));
}

/** The newest password reset link mailed to `email` (the outbox file: no SMTP configured). */
async function resetLinkFor(email: string, after: number): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  let link: string | undefined;
  const found = await waitFor(() => {
    if (!fs.existsSync(outbox)) return false;
    const mails = fs
      .readFileSync(outbox, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { to: string; subject: string; text: string })
      .filter((mail) => mail.to === email && mail.subject === 'Reset your password');
    link = mails.length > after ? /https:\/\/\S+\/reset-password\?ticket=\S+/.exec(mails.at(-1)!.text)?.[0] : undefined;
    return link !== undefined;
  }, 10_000);
  assert.ok(found && link, `reset mail number ${after + 1} to ${email}`);
  return link;
}

function resetMailCount(email: string): number {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  if (!fs.existsSync(outbox)) return 0;
  return fs
    .readFileSync(outbox, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { to: string; subject: string })
    .filter((mail) => mail.to === email && mail.subject === 'Reset your password').length;
}

/** The forgot-password page of a login page's transaction, then the emailed link, then the new password. */
async function resetPassword(target: App, email: string, extra: Record<string, string>): Promise<void> {
  const browser = new ScriptedBrowser(issuer.origin, ca);
  const login = await openPage(browser, await startAuthorization(target, extra), '/login');
  const state = readForm(login.last.text, login.hops.at(-1)!.url).hidden.state!;
  const forgot = await browser.navigate(`/forgot-password?state=${encodeURIComponent(state)}`);
  assert.equal(forgot.last.status, 200, forgot.last.text.slice(0, 300));
  const before = resetMailCount(email);
  const sent = await submit(browser, forgot, { email });
  assert.equal(sent.last.status, 200, sent.last.text.slice(0, 300));
  const link = await resetLinkFor(email, before);
  const form = await browser.navigate(link);
  assert.equal(form.last.status, 200, form.last.text.slice(0, 300));
  const done = await submit(browser, form, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
  assert.equal(done.last.status, 200, done.last.text.slice(0, 300));
}

before(async () => {
  // As `npm start` runs: the tenant starts with Username-Password-Authentication and enable_client_connections.
  server = await startServerProcess({ timeoutMs: 120_000, env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
  ca = fs.readFileSync(server.certFile);
  issuer = new URL(`${server.baseUrl}/`);
  callback = `http://127.0.0.1:${await freePort()}/callback`;
  token = await managementToken(server);
  await management('POST', '/connections', { name: OWN_CONNECTION, strategy: 'auth0' });
  const other = await management('POST', '/connections', { name: OTHER_CONNECTION, strategy: 'auth0' });
  app = await createApp('Two connections');
  noDatabase = await createApp('No database connection');
  await management('PATCH', `/connections/${other.id as string}/clients`, [{ client_id: app.clientId, status: false }]);
  for (const name of [DEFAULT_CONNECTION, OWN_CONNECTION, OTHER_CONNECTION]) {
    await management('PATCH', `/connections/${await connectionId(name)}/clients`, [{ client_id: noDatabase.clientId, status: false }]);
  }
  aliceId = (await management('POST', '/users', { connection: DEFAULT_CONNECTION, email: ALICE, password: PASSWORD })).user_id as string;
  bobId = (await management('POST', '/users', { connection: OWN_CONNECTION, email: BOB, password: PASSWORD })).user_id as string;
});

after(async () => {
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('an application with two database connections', () => {
  test('the new application is enabled on both, as enable_client_connections does', async () => {
    assert.ok((await clientsOf(DEFAULT_CONNECTION)).includes(app.clientId));
    assert.ok((await clientsOf(OWN_CONNECTION)).includes(app.clientId));
    assert.ok(!(await clientsOf(OTHER_CONNECTION)).includes(app.clientId));
  });

  test('without connection: the oldest database connection (Username-Password-Authentication) logs its user in', async () => {
    assert.equal(await logIn(app, ALICE, PASSWORD), aliceId);
    assert.equal(await refusedLogin(app, BOB, PASSWORD), 'Wrong email or password.', "the other connection's user is not looked up");
  });

  test('connection=NAME: that connection logs its user in, and only its own', async () => {
    assert.equal(await logIn(app, BOB, PASSWORD, { connection: OWN_CONNECTION }), bobId);
    assert.equal(await logIn(app, ALICE, PASSWORD, { connection: DEFAULT_CONNECTION }), aliceId);
    assert.equal(await refusedLogin(app, ALICE, PASSWORD, { connection: OWN_CONNECTION }), 'Wrong email or password.');
  });

  test("without connection, the tenant's default_directory when it is enabled for the client; connection= still wins", async () => {
    try {
      await setDefaultDirectory(OWN_CONNECTION);
      assert.equal(await logIn(app, BOB, PASSWORD), bobId);
      assert.equal(await refusedLogin(app, ALICE, PASSWORD), 'Wrong email or password.');
      assert.equal(await logIn(app, ALICE, PASSWORD, { connection: DEFAULT_CONNECTION }), aliceId);

      // A default directory the client is not enabled on is passed over: the oldest of the client's again.
      await setDefaultDirectory(OTHER_CONNECTION);
      assert.equal(await logIn(app, ALICE, PASSWORD), aliceId);
    } finally {
      await setDefaultDirectory('');
    }
  });

  test('signup creates the user in the resolved connection', async () => {
    const signUp = async (email: string, extra: Record<string, string>) => {
      const browser = new ScriptedBrowser(issuer.origin, ca);
      const pending = await startAuthorization(app, { screen_hint: 'signup', ...extra });
      const page = await openPage(browser, pending, '/signup');
      const subject = await subjectAfter(app, pending, await submit(browser, page, { email, password: PASSWORD }));
      assert.match(subject, /^auth0\|/);
    };
    await signUp('carol@partner.example', { connection: OWN_CONNECTION });
    assert.deepEqual(await connectionsOf('carol@partner.example'), [OWN_CONNECTION]);
    await signUp('dave@example.com', {});
    assert.deepEqual(await connectionsOf('dave@example.com'), [DEFAULT_CONNECTION]);
    try {
      await setDefaultDirectory(OWN_CONNECTION);
      await signUp('erin@partner.example', {});
      assert.deepEqual(await connectionsOf('erin@partner.example'), [OWN_CONNECTION]);
    } finally {
      await setDefaultDirectory('');
    }
  });

  test("the forgot-password page resets the password in the resolved connection's account", async () => {
    await management('POST', '/users', { connection: OWN_CONNECTION, email: 'frank@partner.example', password: PASSWORD });
    await resetPassword(app, 'frank@partner.example', { connection: OWN_CONNECTION });
    assert.match(await logIn(app, 'frank@partner.example', NEW_PASSWORD, { connection: OWN_CONNECTION }), /^auth0\|/);

    await management('POST', '/users', { connection: DEFAULT_CONNECTION, email: 'grace@example.com', password: PASSWORD });
    await resetPassword(app, 'grace@example.com', {});
    assert.match(await logIn(app, 'grace@example.com', NEW_PASSWORD), /^auth0\|/);
  });
});

describe('an application with no database connection', () => {
  const MESSAGE = /^This application has no database connection enabled/;

  test('the login, signup and forgot-password pages refuse with a message that says so', async () => {
    assert.match(await refusedLogin(noDatabase, ALICE, PASSWORD), MESSAGE);

    const browser = new ScriptedBrowser(issuer.origin, ca);
    const signup = await openPage(browser, await startAuthorization(noDatabase, { screen_hint: 'signup' }), '/signup');
    const refusedSignup = await submit(browser, signup, { email: 'nobody@example.com', password: PASSWORD });
    assert.equal(refusedSignup.last.status, 400);
    assert.match(alertOf(refusedSignup.last.text), MESSAGE);
    assert.deepEqual(await connectionsOf('nobody@example.com'), [], 'no user was created');

    const state = readForm(signup.last.text, signup.hops.at(-1)!.url).hidden.state!;
    const forgot = await browser.navigate(`/forgot-password?state=${encodeURIComponent(state)}`);
    const refusedReset = await submit(browser, forgot, { email: ALICE });
    assert.equal(refusedReset.last.status, 400);
    assert.match(alertOf(refusedReset.last.text), MESSAGE);
  });
});

describe('/authorize with a connection the application cannot use', () => {
  /** The navigation's first answer, asserted to be the redirect to the callback with the error. */
  async function refusedAtOnce(target: App, extra: Record<string, string>): Promise<void> {
    const browser = new ScriptedBrowser(issuer.origin, ca);
    const pending = await startAuthorization(target, extra);
    const answer = await browser.navigate(pending.url);
    assert.equal(answer.hops.length, 1, 'answered by /authorize itself, no page');
    assert.equal(answer.hops[0]!.status, 302);
    assert.ok(answer.leftTo, 'a redirect to the application');
    assert.equal(`${answer.leftTo.origin}${answer.leftTo.pathname}`, callback);
    assert.equal(answer.leftTo.searchParams.get('code'), null);
    await assert.rejects(client.authorizationCodeGrant(target.config, answer.leftTo, pending), (error: unknown) => {
      assert.ok(error instanceof client.AuthorizationResponseError, String(error));
      assert.equal(error.error, 'invalid_request');
      assert.equal(error.error_description, NOT_FOUND);
      return true;
    });
  }

  test('a connection that does not exist: invalid_request to the redirect_uri, at once', async () => {
    await refusedAtOnce(app, { connection: 'unknown' });
    await refusedAtOnce(app, { connection: 'unknown', prompt: 'none' });
  });

  test('a connection of the tenant not enabled for the client: the same answer', async () => {
    await refusedAtOnce(app, { connection: OTHER_CONNECTION });
    await refusedAtOnce(noDatabase, { connection: DEFAULT_CONNECTION });
  });

  test('a redirect_uri that is not trusted: the error page, never a redirect', async () => {
    const url = new URL(`${server.baseUrl}/authorize`);
    url.search = new URLSearchParams({ client_id: app.clientId, response_type: 'code', redirect_uri: 'https://attacker.example/cb', scope: 'openid', connection: 'unknown' }).toString();
    const answer = await new ScriptedBrowser(issuer.origin, ca).navigate(url);
    assert.equal(answer.hops.length, 1);
    assert.equal(answer.leftTo, undefined);
    assert.equal(answer.last.status, 400);
    assert.match(String(answer.last.headers['content-type']), /^text\/html/);
  });
});
