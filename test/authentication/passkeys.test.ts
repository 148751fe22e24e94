/**
 * Passkeys as a database connection's first factor (src/domain/mfa/passkeys.ts,
 * the login step's passkey routes, the progressive enrolment step), through
 * app.inject with a software authenticator (../helpers/webauthn-authenticator.ts):
 * signup with a passkey alone, login with it, how the login page offers it
 * (`passkey_options.challenge_ui`), progressive enrolment after a password
 * login; and every refusal, each answered with the page again (400, an
 * alert) and no code for the application: another origin, another RP ID, a
 * replayed challenge, the challenge of another login, another user's
 * handle, a passkey of another tenant, user verification missing, a
 * counter that went backwards, the method switched off, a blocked user,
 * brute-force protection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, inlineScripts, pkce, redirectParams } from '../helpers/browser.js';
import { WEBAUTHN_HASH } from '../../src/authentication/pages/html.js';
import { WEBAUTHN_SCRIPT } from '../../src/authentication/pages/webauthn-form.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { SoftwareAuthenticator } from '../helpers/webauthn-authenticator.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const OTHER_DOMAIN = 'other.test';

interface CeremonyOptions {
  challenge: string;
  rp?: { id: string };
  rpId?: string;
  user?: { id: string; name: string };
  allowCredentials?: unknown[];
  userVerification?: string;
  authenticatorSelection?: { userVerification: string; residentKey: string };
}

function unescape(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The ceremony options of the page's WebAuthn form (data-webauthn, HTML-escaped JSON). */
function ceremonyOptions(body: string): CeremonyOptions {
  const match = /data-webauthn="([^"]*)"/.exec(body);
  assert.ok(match, 'a WebAuthn form in the page');
  return JSON.parse(unescape(match[1]!)) as CeremonyOptions;
}

const passkeyOptions = (challengeUi: string, progressive = true) => ({
  authentication_methods: { password: { enabled: true }, passkey: { enabled: true } },
  passkey_options: { challenge_ui: challengeUi, progressive_enrollment_enabled: progressive, local_enrollment_enabled: false },
});

describe('passkeys as a first factor in the hosted login', () => {
  let t: TestApp;
  let app: TestClient;
  let connectionId: string;

  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const userByEmail = async (email: string) => ((await mgmt('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`)).json() as { user_id: string }[])[0];
  const methodsOf = async (userId: string) => (await mgmt('GET', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`)).json() as { id: string; type: string; key_id?: string }[];

  /** /authorize to its first page. */
  async function open(params: Record<string, string> = {}) {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const page = await browser.hostedPage(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid email', code_challenge: challenge, ...params }));
    return { browser, verifier, page };
  }

  async function exchange(res: LightMyRequestResponse, verifier: string) {
    const code = redirectParams(res, CALLBACK).get('code')!;
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    return decodeJwt((tokens.json() as { id_token: string }).id_token);
  }

  /** A refusal: the page again with its alert, no redirect to the application. */
  function refused(res: LightMyRequestResponse, why: string, text = /That passkey was not accepted|That passkey could not be created/) {
    assert.equal(res.statusCode, 400, `${why}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    assert.equal(res.headers.location, undefined, `${why}: no redirect`);
    assert.match(res.body, new RegExp(`role="alert"[^>]*>[^<]*(${text.source})`), `${why}: the page says so`);
    assert.ok(!String(res.headers['set-cookie'] ?? '').includes('gh_session='), `${why}: no session`);
  }

  /** Signs up `email` with a passkey alone; returns the key, the user id and the signup's answer. */
  async function signUp(email: string, userVerified = true) {
    const { browser, verifier, page } = await open({ screen_hint: 'signup' });
    assert.doesNotMatch(page.body, /type="password"/, 'the signup page asks for the email alone');
    const next = await browser.post('/signup', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email });
    assert.equal(next.statusCode, 200, next.body);
    const options = ceremonyOptions(next.body);
    assert.equal(options.rp?.id, DOMAIN);
    assert.equal(options.authenticatorSelection?.residentKey, 'required');
    assert.equal(options.authenticatorSelection?.userVerification, 'required');
    const key = new SoftwareAuthenticator();
    const done = await browser.post('/signup/passkey', {
      state: hidden(next.body, 'state'),
      csrf_token: hidden(next.body, 'csrf_token'),
      passkey_state: hidden(next.body, 'passkey_state'),
      credential: JSON.stringify(key.register({ challenge: options.challenge, rpId: DOMAIN, userVerified })),
    });
    const userId = Buffer.from(options.user!.id, 'base64url').toString('utf8');
    return { key, userId, done, verifier };
  }

  /** The login page, and an answer to its passkey form. */
  async function loginPage() {
    const login = await open();
    const options = ceremonyOptions(login.page.body);
    const post = (credential: unknown, state = hidden(login.page.body, 'passkey_state')) =>
      login.browser.post('/login/passkey', { state: hidden(login.page.body, 'state'), csrf_token: hidden(login.page.body, 'csrf_token'), passkey_state: state, credential: JSON.stringify(credential) });
    return { ...login, options, post };
  }

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const created = await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id], options: passkeyOptions('both') });
    connectionId = (created.json() as { id: string }).id;
  });
  after(() => t.close());

  it('signs up with a passkey alone (no password), lists it as type passkey, and logs in with it', async () => {
    const { key, userId, done, verifier } = await signUp('pk1@example.com');
    assert.equal(done.statusCode, 302, done.body);
    assert.equal((await exchange(done, verifier)).sub, userId);
    assert.equal((await userByEmail('pk1@example.com'))!.user_id, userId);
    assert.deepEqual((await methodsOf(userId)).map((m) => [m.type, m.key_id]), [['passkey', key.id]]);

    // No password: a password login of the user is refused.
    const withPassword = await new Browser(t).login(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid' }), 'pk1@example.com', '');
    assert.equal(withPassword.statusCode, 400);

    const login = await loginPage();
    assert.match(login.page.body, /autocomplete="username webauthn"/, 'autofill offers passkeys in the identifier field');
    assert.match(login.page.body, /data-webauthn-conditional="true"/);
    assert.match(login.page.body, /Continue with a passkey/);
    assert.equal(login.options.rpId, DOMAIN);
    assert.equal(login.options.userVerification, 'required');
    assert.deepEqual(login.options.allowCredentials ?? [], [], 'a discoverable ceremony names no credential');
    const ok = await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: userId }));
    assert.equal(ok.statusCode, 302, ok.body);
    assert.equal((await exchange(ok, login.verifier)).sub, userId);

    // The tenant log has the login (s), as a password login's.
    await t.ctx.tenantLogs.flush();
    const logs = (await mgmt('GET', `/api/v2/logs?q=${encodeURIComponent(`user_id:"${userId}" AND type:s`)}`)).json() as { type: string; connection: string }[];
    assert.equal(logs.length, 1, JSON.stringify(logs));
    assert.equal(logs[0]!.connection, REALM);
  });

  it('offers the button, the autofill, or both, as passkey_options.challenge_ui says', async () => {
    try {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('button') });
      let { page } = await open();
      assert.match(page.body, /Continue with a passkey/);
      assert.doesNotMatch(page.body, /<input[^>]*username webauthn|<form[^>]*data-webauthn-conditional/);
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('autofill') });
      ({ page } = await open());
      assert.doesNotMatch(page.body, /Continue with a passkey/);
      assert.match(page.body, /<input[^>]*autocomplete="username webauthn"/);
      assert.match(page.body, /<form[^>]*data-webauthn-conditional="true"/);
      // The WebAuthn script is on the page and allowed by its hash in the CSP.
      assert.ok(inlineScripts(page.body).includes(WEBAUTHN_SCRIPT));
      assert.match(String(page.headers['content-security-policy']), new RegExp(`script-src [^;]*${WEBAUTHN_HASH.replace(/[+/]/g, '\\$&')}`));
    } finally {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('both') });
    }
  });

  it('a bad Management value for passkey_options is a 400, changing nothing', async () => {
    const res = await t.management('PATCH', `/api/v2/connections/${connectionId}`, { body: { options: { ...passkeyOptions('both'), passkey_options: { challenge_ui: 'popup' } } } });
    assert.equal(res.statusCode, 400, res.body);
    const options = ((await mgmt('GET', `/api/v2/connections/${connectionId}`)).json() as { options: { passkey_options: { challenge_ui: string } } }).options;
    assert.equal(options.passkey_options.challenge_ui, 'both');
  });

  it('refuses an assertion from another origin, for another RP ID, or without user verification', async () => {
    const { key, userId } = await signUp('pk2@example.com');
    for (const [why, ceremony] of [
      ['another origin', { rpId: DOMAIN, origin: 'https://evil.example' }],
      ['another RP ID', { rpId: 'evil.example', origin: `https://${DOMAIN}` }],
      ['no user verification', { rpId: DOMAIN, userVerified: false }],
    ] as const) {
      const login = await loginPage();
      refused(await login.post(key.assert({ challenge: login.options.challenge, ...ceremony }, { userHandle: userId })), why);
    }
  });

  it('refuses a replayed challenge, and the challenge of another login', async () => {
    const { key, userId } = await signUp('pk3@example.com');
    const login = await loginPage();
    // The first answer (from another origin) spends the challenge; the right answer to it is then refused.
    refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN, origin: 'https://evil.example' }, { userHandle: userId })), 'another origin');
    refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: userId })), 'the challenge replayed');

    // A ceremony sealed for another browser's login, answered in this one.
    const other = await loginPage();
    const mine = await loginPage();
    refused(await mine.post(key.assert({ challenge: other.options.challenge, rpId: DOMAIN }, { userHandle: userId }), hidden(other.page.body, 'passkey_state')), 'the challenge of another login');
    // A forged state.
    refused(await mine.post(key.assert({ challenge: mine.options.challenge, rpId: DOMAIN }, { userHandle: userId }), 'v1.AAAA.BBBB'), 'a forged state');
  });

  it("refuses another user's handle with a passkey, a counter that went backwards, and an answer that is not a credential", async () => {
    const { key } = await signUp('pk4@example.com');
    const { userId: otherUser } = await signUp('pk5@example.com');
    const login = await loginPage();
    refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: otherUser })), "another user's handle");

    const { key: counted, userId } = await signUp('pk6@example.com');
    const first = await loginPage();
    assert.equal((await first.post(counted.assert({ challenge: first.options.challenge, rpId: DOMAIN }, { signCount: 10, userHandle: userId }))).statusCode, 302);
    const cloned = await loginPage();
    refused(await cloned.post(counted.assert({ challenge: cloned.options.challenge, rpId: DOMAIN }, { signCount: 5, userHandle: userId })), 'a counter that went backwards');

    const junk = await loginPage();
    refused(
      await junk.browser.post('/login/passkey', { state: hidden(junk.page.body, 'state'), csrf_token: hidden(junk.page.body, 'csrf_token'), passkey_state: hidden(junk.page.body, 'passkey_state'), credential: '{not json' }),
      'not JSON',
    );
  });

  it('refuses a signup passkey without user verification: no user is made', async () => {
    const { done } = await signUp('pk7@example.com', false);
    refused(done, 'a registration without user verification');
    assert.equal(await userByEmail('pk7@example.com'), undefined);
  });

  it('refuses a passkey when the connection has passkeys off, and for a blocked user', async () => {
    const { key, userId } = await signUp('pk8@example.com');
    const before = await loginPage();
    try {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: { ...passkeyOptions('both'), authentication_methods: { passkey: { enabled: false } } } });
      const { page } = await open();
      assert.doesNotMatch(page.body, /<form[^>]*data-webauthn|<input[^>]*username webauthn|passkey_state/i, 'no passkey offered');
      refused(await before.post(key.assert({ challenge: before.options.challenge, rpId: DOMAIN }, { userHandle: userId })), 'passkeys off');
    } finally {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('both') });
    }
    await mgmt('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, { blocked: true });
    const login = await loginPage();
    refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: userId })), 'a blocked user', /This user is blocked/);
  });

  it('brute-force protection counts refused passkeys as wrong passwords: after 10, even the right passkey is refused', async () => {
    const { key, userId } = await signUp('pk10@example.com');
    for (let i = 0; i < 10; i++) {
      const login = await loginPage();
      refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN, origin: 'https://evil.example' }, { userHandle: userId })), `refused attempt ${i + 1}`);
    }
    const login = await loginPage();
    refused(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: userId })), 'blocked', /Your account has been blocked/);
    await t.ctx.tenantLogs.flush();
    const types = ((await mgmt('GET', `/api/v2/logs?q=${encodeURIComponent(`user_id:"${userId}"`)}&per_page=50`)).json() as { type: string; description?: string }[]).map((l) => l.type);
    assert.equal(types.filter((type) => type === 'f').length, 10, 'each refused passkey logged (f)');
    assert.ok(types.includes('limit_wc'), 'the blocked attempt logged (limit_wc)');
  });

  it("refuses a passkey of another tenant: the credential id is unknown there", async () => {
    const { key, userId } = await signUp('pk9@example.com');
    const other = await t.ctx.tenants.create({ domain: OTHER_DOMAIN });
    const issued = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: other.adminClientId, client_secret: other.adminClientSecret, audience: `https://${OTHER_DOMAIN}/api/v2/` }, { host: OTHER_DOMAIN });
    const token = (issued.json() as { access_token: string }).access_token;
    const otherMgmt = async (method: string, url: string, body: unknown) => {
      const res = await t.management(method, url, { token, body, headers: { host: OTHER_DOMAIN } });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.json() as { client_id: string };
    };
    const client = await otherMgmt('POST', '/api/v2/clients', { name: 'Other app', app_type: 'spa', callbacks: [CALLBACK], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none' });
    await otherMgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id], options: passkeyOptions('both') });

    const browser = new Browser(t);
    const host = { host: OTHER_DOMAIN };
    const started = await browser.get(authorizeUrl(client.client_id, CALLBACK, { scope: 'openid', code_challenge: pkce().challenge }), host);
    assert.equal(started.statusCode, 302, started.body);
    const page = await browser.get(started.headers.location as string, host);
    assert.equal(page.statusCode, 200, page.body);
    const options = ceremonyOptions(page.body);
    assert.equal(options.rpId, OTHER_DOMAIN, 'the other tenant is its own relying party');
    // Even signed for the other tenant's RP ID and origin, tenant A's credential names no passkey there.
    const res = await browser.post(
      '/login/passkey',
      {
        state: hidden(page.body, 'state'),
        csrf_token: hidden(page.body, 'csrf_token'),
        passkey_state: hidden(page.body, 'passkey_state'),
        credential: JSON.stringify(key.assert({ challenge: options.challenge, rpId: OTHER_DOMAIN }, { userHandle: userId })),
      },
      host,
    );
    refused(res, 'a passkey of another tenant');
  });

  it('offers a passkey after a password login (progressive enrolment): created, or declined and offered again', async () => {
    await mgmt('POST', '/api/v2/users', { connection: REALM, email: 'pw1@example.com', password: PASSWORD });
    const url = () => authorizeUrl(app.client_id, CALLBACK, { scope: 'openid' });
    const browser = new Browser(t);
    const loggedIn = await browser.login(url(), 'pw1@example.com', PASSWORD);
    assert.equal(new URL(loggedIn.headers.location as string, 'https://x').pathname, '/passkey/enrol');
    const offer = await browser.get(loggedIn.headers.location as string);
    assert.equal(offer.statusCode, 200, offer.body);
    assert.match(offer.body, /Create a passkey/);
    // Declined: the application gets its code; the next password login offers again.
    const skipped = await browser.post('/passkey/enrol', { state: hidden(offer.body, 'state'), csrf_token: hidden(offer.body, 'csrf_token'), skip: 'true' });
    redirectParams(skipped, CALLBACK);

    const again = new Browser(t);
    const second = await again.login(url(), 'pw1@example.com', PASSWORD);
    const page = await again.get(second.headers.location as string);
    const options = ceremonyOptions(page.body);
    const userId = (await userByEmail('pw1@example.com'))!.user_id;
    assert.equal(Buffer.from(options.user!.id, 'base64url').toString('utf8'), userId);
    const key = new SoftwareAuthenticator();
    // Refused without user verification; created with it.
    const bad = await again.post('/passkey/enrol', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), passkey_state: hidden(page.body, 'passkey_state'), credential: JSON.stringify(key.register({ challenge: options.challenge, rpId: DOMAIN, userVerified: false })) });
    refused(bad, 'an enrolment without user verification');
    const retry = ceremonyOptions(bad.body);
    const created = await again.post('/passkey/enrol', { state: hidden(bad.body, 'state'), csrf_token: hidden(bad.body, 'csrf_token'), passkey_state: hidden(bad.body, 'passkey_state'), credential: JSON.stringify(key.register({ challenge: retry.challenge, rpId: DOMAIN })) });
    redirectParams(created, CALLBACK);
    assert.deepEqual((await methodsOf(userId)).map((m) => m.type), ['passkey']);

    // With a passkey, a password login goes straight on; and the passkey logs in.
    const third = await new Browser(t).login(url(), 'pw1@example.com', PASSWORD);
    redirectParams(third, CALLBACK);
    const login = await loginPage();
    redirectParams(await login.post(key.assert({ challenge: login.options.challenge, rpId: DOMAIN }, { userHandle: userId })), CALLBACK);
  });

  it('with progressive enrolment off, a password login offers nothing', async () => {
    try {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('both', false) });
      await mgmt('POST', '/api/v2/users', { connection: REALM, email: 'pw2@example.com', password: PASSWORD });
      redirectParams(await new Browser(t).login(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid' }), 'pw2@example.com', PASSWORD), CALLBACK);
    } finally {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: passkeyOptions('both') });
    }
  });

  it('signup with a password is still offered, and an email already taken is refused before any passkey', async () => {
    const { browser, page } = await open({ screen_hint: 'signup' });
    assert.match(page.body, /method=password/);
    const taken = await browser.post('/signup', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'pk1@example.com' });
    assert.equal(taken.statusCode, 400);
    assert.doesNotMatch(taken.body, /data-webauthn=/);
    const invalid = await browser.post('/signup', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'not an email' });
    assert.equal(invalid.statusCode, 400);
    assert.match(invalid.body, /Enter a valid email address/);
    const withPassword = await browser.get(`/signup?state=${encodeURIComponent(hidden(page.body, 'state'))}&method=password`);
    assert.match(withPassword.body, /type="password"/);
  });
});
