/**
 * Multi-factor authentication at the token endpoint and the MFA API, through
 * app.inject on the real app and database: `mfa_required` from the password
 * grants, enrolment through /mfa/associate, the mfa-otp, mfa-oob and
 * mfa-recovery-code grants with codes computed by an RFC 6238 library, the
 * MFA API's access tokens, and every refusal: a reused code, wrong codes past
 * the limit, an expired mfa_token, another client's or user's, a spent one,
 * a recovery code used twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { FAILURE_WINDOW_SECONDS, MAX_CODE_FAILURES } from '../../src/domain/mfa/service.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const MFA_OTP = 'http://auth0.com/oauth/grant-type/mfa-otp';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const MFA_RECOVERY = 'http://auth0.com/oauth/grant-type/mfa-recovery-code';
const MFA_AUDIENCE = `https://${DOMAIN}/mfa/`;

describe('MFA: mfa_required, the MFA API and the MFA grants', () => {
  let t: TestApp;
  let app: TestClient;
  let other: TestClient;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  const secrets = new Map<string, string>();

  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };

  async function createUser(email: string): Promise<string> {
    return ((await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD })).json() as { user_id: string }).user_id;
  }

  const login = (email: string, client: TestClient = app, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username: email, password: PASSWORD, realm: REALM, ...extra });

  async function mfaToken(email: string, client: TestClient = app, extra: Record<string, string> = {}): Promise<string> {
    const res = await login(email, client, extra);
    assert.equal(res.statusCode, 403, res.body);
    return (res.json() as { mfa_token: string }).mfa_token;
  }

  const mfaApi = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { host: DOMAIN, authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });

  const code = (secret: string, at = t.ctx.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

  const otpGrant = (token: string, otp: string, client: TestClient = app) =>
    tokenRequest(t.app, { grant_type: MFA_OTP, client_id: client.client_id, client_secret: client.client_secret, mfa_token: token, otp });

  const refusal = (res: LightMyRequestResponse) => ({ status: res.statusCode, ...(res.json() as Record<string, unknown>) });

  /** Enrols a new user in OTP through /mfa/associate and confirms it with a first code; returns the recovery code. */
  async function enrolOtp(email: string): Promise<string> {
    const token = await mfaToken(email);
    const res = await mfaApi('POST', '/mfa/associate', token, { authenticator_types: ['otp'] });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { secret: string; recovery_codes: string[] };
    secrets.set(email, body.secret);
    const confirmed = await otpGrant(token, code(body.secret));
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    return body.recovery_codes[0]!;
  }

  /** Moves the clock to the next 30-second step, so a fresh code exists. */
  const nextStep = () => t.ctx.clock.advance(30_000);

  before(async () => {
    t = await createTestApp();
    const grants = ['password', PASSWORD_REALM, MFA_OTP, MFA_OOB, MFA_RECOVERY];
    app = await insertClient(t, { grant_types: grants });
    other = await insertClient(t, { grant_types: grants });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id, other.client_id] });
    for (const factor of ['otp', 'email', 'recovery-code']) await mgmt('PUT', `/api/v2/guardian/factors/${factor}`, { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) await createUser(`${name}@example.com`);
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('a password login answers 403 mfa_required with an mfa_token and what to enrol', async () => {
    const res = await login('alice@example.com');
    assert.equal(res.statusCode, 403, res.body);
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error', 'error_description', 'mfa_token', 'mfa_requirements']);
    assert.equal(body.error, 'mfa_required');
    assert.equal(body.error_description, 'Multifactor authentication required');
    assert.deepEqual(body.mfa_requirements, { enroll: [{ type: 'otp' }, { type: 'email' }] });
    assert.ok(!('access_token' in body));
  });

  it('/mfa/associate otp: a secret, an otpauth:// URI and a first recovery code; the first code confirms it and logs in with amr mfa', async () => {
    const token = await mfaToken('alice@example.com', app, { scope: 'openid email' });
    const res = await mfaApi('POST', '/mfa/associate', token, { authenticator_types: ['otp'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json() as { authenticator_type: string; secret: string; barcode_uri: string; recovery_codes: string[] };
    assert.equal(body.authenticator_type, 'otp');
    assert.match(body.secret, /^[A-Z2-7]{32}$/);
    const uri = new URL(body.barcode_uri);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), body.secret);
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
    assert.ok(decodeURIComponent(uri.pathname).endsWith('alice@example.com'));
    assert.match(body.recovery_codes[0]!, /^[A-Z0-9]{24}$/);
    secrets.set('alice@example.com', body.secret);

    const listed = (await mfaApi('GET', '/mfa/authenticators', token)).json() as { authenticator_type: string; active: boolean }[];
    assert.deepEqual(listed.map((a) => [a.authenticator_type, a.active]), [['otp', false], ['recovery-code', false]]);

    const granted = await otpGrant(token, code(body.secret));
    assert.equal(granted.statusCode, 200, granted.body);
    const tokens = granted.json() as { id_token: string; access_token: string };
    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: `https://${DOMAIN}/`, audience: app.client_id });
    assert.deepEqual(payload.amr, ['mfa']);
    assert.equal(payload.email, 'alice@example.com');

    const again = await login('alice@example.com');
    assert.deepEqual((again.json() as { mfa_requirements: unknown }).mfa_requirements, { challenge: [{ type: 'otp' }, { type: 'recovery-code' }] });
  });

  it('refuses a reused OTP, and a spent mfa_token', async () => {
    nextStep();
    const secret = secrets.get('alice@example.com')!;
    const first = await mfaToken('alice@example.com');
    const otp = code(secret);
    assert.equal((await otpGrant(first, otp)).statusCode, 200);
    const second = await mfaToken('alice@example.com');
    assert.deepEqual(refusal(await otpGrant(second, otp)), { status: 403, error: 'invalid_grant', error_description: 'Invalid otp_code.' });
    nextStep();
    assert.deepEqual(refusal(await otpGrant(first, code(secret))), { status: 403, error: 'invalid_grant', error_description: 'The mfa_token was already used.' });
    assert.equal((await mfaApi('GET', '/mfa/authenticators', first)).statusCode, 401, 'a spent mfa_token opens nothing, the MFA API included');
  });

  it('refuses an expired mfa_token, another client\'s, another user\'s and a forged one', async () => {
    nextStep();
    const secret = secrets.get('alice@example.com')!;
    const token = await mfaToken('alice@example.com');
    await withClockAdvanced(t, 601_000, async () => {
      assert.deepEqual(refusal(await otpGrant(token, code(secret))), { status: 403, error: 'expired_token', error_description: 'mfa_token is expired' });
    });
    assert.deepEqual(refusal(await otpGrant(token, code(secret), other)), {
      status: 403,
      error: 'invalid_grant',
      error_description: 'The mfa_token was not issued to this client.',
    });
    await enrolOtp('bob@example.com');
    nextStep();
    const bobs = await mfaToken('bob@example.com');
    assert.deepEqual(refusal(await otpGrant(bobs, code(secret))), { status: 403, error: 'invalid_grant', error_description: 'Invalid otp_code.' }, "alice's code does not log bob in");
    assert.deepEqual(refusal(await otpGrant(`${token.slice(0, -4)}AAAA`, code(secret))), { status: 403, error: 'invalid_grant', error_description: 'Malformed mfa_token' });
    assert.equal((await otpGrant(token, code(secret))).statusCode, 200, 'the refusals changed nothing');
  });

  it(`blocks further codes after ${MAX_CODE_FAILURES} wrong ones, until the window ends`, async () => {
    await enrolOtp('carol@example.com');
    nextStep();
    const secret = secrets.get('carol@example.com')!;
    const token = await mfaToken('carol@example.com');
    const wrong = String((Number(code(secret)) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < MAX_CODE_FAILURES; i++) {
      assert.deepEqual(refusal(await otpGrant(token, wrong)), { status: 403, error: 'invalid_grant', error_description: 'Invalid otp_code.' });
    }
    const blocked = await otpGrant(token, code(secret));
    assert.equal(blocked.statusCode, 429, blocked.body);
    assert.equal((blocked.json() as { error: string }).error, 'too_many_attempts');
    await withClockAdvanced(t, FAILURE_WINDOW_SECONDS * 1000, async () => {
      const fresh = await mfaToken('carol@example.com');
      assert.equal((await otpGrant(fresh, code(secret))).statusCode, 200, 'a new window accepts the right code');
    });
  });

  it('the recovery-code grant logs in and returns a new code; the old one is refused', async () => {
    const recovery = await enrolOtp('dave@example.com');
    const token = await mfaToken('dave@example.com');
    const body = { grant_type: MFA_RECOVERY, client_id: app.client_id, client_secret: app.client_secret, mfa_token: token, recovery_code: recovery.toLowerCase() };
    const res = await tokenRequest(t.app, body);
    assert.equal(res.statusCode, 200, res.body);
    const next = (res.json() as { recovery_code: string }).recovery_code;
    assert.match(next, /^[A-Z0-9]{24}$/);
    assert.notEqual(next, recovery);
    const again = await tokenRequest(t.app, { ...body, mfa_token: await mfaToken('dave@example.com') });
    assert.deepEqual(refusal(again), { status: 403, error: 'invalid_grant', error_description: 'Invalid recovery_code.' });
    const withNext = await tokenRequest(t.app, { ...body, mfa_token: await mfaToken('dave@example.com'), recovery_code: next });
    assert.equal(withNext.statusCode, 200, withNext.body);
  });

  it('email: associate mails a binding code; the mfa-oob grant needs it, once; /mfa/challenge sends a new one', async () => {
    const outbox = t.ctx.mailer.outbox!;
    const token = await mfaToken('erin@example.com');
    const res = await mfaApi('POST', '/mfa/associate', token, { authenticator_types: ['oob'], oob_channels: ['email'] });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { oob_code: string; binding_method: string; oob_channel: string };
    assert.equal(body.binding_method, 'prompt');
    assert.equal(body.oob_channel, 'email');
    const mail = outbox.messages().at(-1)!;
    assert.equal(mail.to, 'erin@example.com');
    const binding = /code is (\d{6})/.exec(mail.text)![1]!;
    const oob = (extra: Record<string, string>) =>
      tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token: token, oob_code: body.oob_code, ...extra });
    const wrong = String((Number(binding) + 1) % 1_000_000).padStart(6, '0');
    assert.deepEqual(refusal(await oob({ binding_code: wrong })), { status: 403, error: 'invalid_grant', error_description: 'Invalid binding_code.' });
    assert.equal((await oob({ binding_code: binding })).statusCode, 200);

    const second = await mfaToken('erin@example.com');
    assert.deepEqual(refusal(await oob({ mfa_token: second, binding_code: binding })), { status: 403, error: 'invalid_grant', error_description: 'Invalid binding_code.' }, 'a binding code works once');
    const challenge = await tokenRequestTo('/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: second, challenge_type: 'oob' });
    assert.equal(challenge.statusCode, 200, challenge.body);
    const challenged = challenge.json() as { challenge_type: string; oob_code: string; binding_method: string };
    assert.deepEqual(Object.keys(challenged), ['challenge_type', 'oob_code', 'binding_method']);
    const fresh = /code is (\d{6})/.exec(outbox.messages().at(-1)!.text)![1]!;
    const other2 = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: other.client_id, client_secret: other.client_secret, mfa_token: second, oob_code: challenged.oob_code, binding_code: fresh });
    assert.equal(other2.statusCode, 403, 'another client cannot use the token');
    const done = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token: second, oob_code: challenged.oob_code, binding_code: fresh });
    assert.equal(done.statusCode, 200, done.body);
  });

  function tokenRequestTo(url: string, body: Record<string, string>) {
    return t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  }

  it('/mfa/challenge: otp for an app, association_required without factors, unsupported_challenge_type', async () => {
    const alice = await mfaToken('alice@example.com');
    const otp = await tokenRequestTo('/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: alice, challenge_type: 'otp' });
    assert.equal(otp.body, '{"challenge_type":"otp"}');
    const oob = await tokenRequestTo('/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: alice, challenge_type: 'oob' });
    assert.equal((oob.json() as { error: string }).error, 'unsupported_challenge_type');
    const frank = await mfaToken('frank@example.com');
    const none = await tokenRequestTo('/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: frank, challenge_type: 'otp' });
    assert.equal(none.statusCode, 400);
    assert.equal((none.json() as { error: string }).error, 'association_required');
    const badSecret = await tokenRequestTo('/mfa/challenge', { client_id: app.client_id, client_secret: 'wrong', mfa_token: alice });
    assert.equal(badSecret.statusCode, 401);
  });

  it('the MFA API audience: an access token with the MFA scopes lists and removes authenticators; the mfa_token alone cannot remove or re-enrol', async () => {
    nextStep();
    const token = await mfaToken('alice@example.com', app, { audience: MFA_AUDIENCE, scope: 'enroll read:authenticators remove:authenticators' });
    const reEnrol = await mfaApi('POST', '/mfa/associate', token, { authenticator_types: ['otp'] });
    assert.deepEqual(refusal(reEnrol), { status: 403, error: 'access_denied', error_description: 'User is already enrolled.' });
    const granted = await otpGrant(token, code(secrets.get('alice@example.com')!));
    assert.equal(granted.statusCode, 200, granted.body);
    const tokens = granted.json() as { access_token: string; scope: string; expires_in: number };
    assert.equal(tokens.scope, 'enroll read:authenticators remove:authenticators');
    assert.equal(tokens.expires_in, 600);
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: `https://${DOMAIN}/`, audience: MFA_AUDIENCE });
    assert.equal(payload.sub, (await t.ctx.stores.users.findByLoginIdentifier(t.tenant.id, (await t.ctx.stores.connections.getByName(t.tenant.id, REALM))!.id, 'alice@example.com'))!.user_id);

    const list = (await mfaApi('GET', '/mfa/authenticators', tokens.access_token)).json() as { id: string; authenticator_type: string; active: boolean }[];
    assert.deepEqual(list.map((a) => [a.authenticator_type, a.active]), [['otp', true], ['recovery-code', true]]);
    assert.match(list[0]!.id, /^totp\|dev_/);

    const erinToken = await mfaToken('erin@example.com');
    const erins = (await mfaApi('GET', '/mfa/authenticators', erinToken)).json() as { id: string; name: string; oob_channel: string }[];
    assert.equal(erins[0]!.oob_channel, 'email');
    assert.equal(erins[0]!.name, '****@exam*******');
    const foreign = await mfaApi('DELETE', `/mfa/authenticators/${encodeURIComponent(erins[0]!.id)}`, tokens.access_token);
    assert.equal(foreign.statusCode, 404, "another user's authenticator is not found");
    const byMfaToken = await mfaApi('DELETE', `/mfa/authenticators/${encodeURIComponent(erins[0]!.id)}`, erinToken);
    assert.equal(byMfaToken.statusCode, 403, 'the mfa_token cannot remove');

    const removed = await mfaApi('DELETE', `/mfa/authenticators/${encodeURIComponent(list[0]!.id)}`, tokens.access_token);
    assert.equal(removed.statusCode, 204, removed.body);
    assert.equal((await mfaApi('GET', '/mfa/authenticators', tokens.access_token)).json().length, 1);
    assert.equal((await mfaApi('GET', '/mfa/authenticators', 'not-a-token')).statusCode, 401);
  });

  it('without a policy, password logins get their tokens directly', async () => {
    await mgmt('PUT', '/api/v2/guardian/policies', []);
    try {
      const res = await login('bob@example.com');
      assert.equal(res.statusCode, 200, res.body);
    } finally {
      await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    }
  });
});
