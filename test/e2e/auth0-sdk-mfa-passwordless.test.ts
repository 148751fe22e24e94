/**
 * Multi-factor authentication and passwordless email end to end over real
 * HTTPS against the built server, with the official `auth0` SDK's
 * AuthenticationClient (auth0/legacy) where it has the call:
 *
 * - MFA: the SDK's password-realm login answers `mfa_required`; the SDK has
 *   no MFA calls, so /mfa/associate and the MFA grants are raw requests over
 *   the same verified TLS. OTP codes are computed by otpauth (RFC 6238) in
 *   the test from the secret the server returned;
 * - passwordless: the SDK's passwordless.sendEmail and loginWithEmail, with
 *   the code read from the server's outbox file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuthenticationClient } from 'auth0/legacy';
import { createRemoteJWKSet, customFetch as joseCustomFetch, decodeJwt, jwtVerify } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest, managementToken, waitFor } from './support/https.js';

const CONNECTION = 'mfa-e2e-users';
const EMAIL = 'mfa-e2e@example.com';
const PASSWORD = 'Correct horse battery staple 9';
const GRANTS = [
  'password',
  'http://auth0.com/oauth/grant-type/password-realm',
  'http://auth0.com/oauth/grant-type/mfa-otp',
  'http://auth0.com/oauth/grant-type/mfa-recovery-code',
  'http://auth0.com/oauth/grant-type/passwordless/otp',
];
const PASSWORDLESS_EMAIL = 'passwordless-e2e@example.com';

let server: ServerProcess;
let ca: Buffer;
let clientId: string;
let clientSecret: string;
let auth: AuthenticationClient;
let adminToken: string;

async function call(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  return httpsRequest(`${server.baseUrl}${path}`, {
    ca,
    method,
    headers: { 'content-type': 'application/json', ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }) },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
}

async function management(token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await call(method, `/api/v2${path}`, { token, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.text === '' ? {} : res.json<Record<string, unknown>>();
}

/** The SDK's password-realm login, expected to be refused with mfa_required; returns the mfa_token. */
async function sdkLoginNeedingMfa(): Promise<string> {
  const refused = await auth.oauth.passwordGrant({ username: EMAIL, password: PASSWORD, realm: CONNECTION, scope: 'openid email' }).then(
    () => assert.fail('the login needed no second factor'),
    (error: { statusCode?: number; error?: string; body?: string }) => error,
  );
  assert.equal(refused.statusCode, 403);
  assert.equal(refused.error, 'mfa_required');
  return (JSON.parse(refused.body!) as { mfa_token: string }).mfa_token;
}

const grant = (body: Record<string, string>) => call('POST', '/oauth/token', { body: { client_id: clientId, client_secret: clientSecret, ...body } });

before(async () => {
  server = await startServerProcess();
  ca = fs.readFileSync(server.certFile);
  const token = await managementToken(server);
  adminToken = token;
  const created = await management(token, 'POST', '/clients', {
    name: 'MFA e2e app',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: GRANTS,
  });
  clientId = created.client_id as string;
  clientSecret = created.client_secret as string;
  await management(token, 'POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
  await management(token, 'POST', '/connections', { name: 'email', strategy: 'email', enabled_clients: [clientId] });
  await management(token, 'POST', '/users', { connection: CONNECTION, email: EMAIL, password: PASSWORD });
  for (const factor of ['otp', 'recovery-code']) await management(token, 'PUT', `/guardian/factors/${factor}`, { enabled: true });
  await management(token, 'PUT', '/guardian/policies', ['all-applications']);
  // The SDK's requests go through a fetch trusting exactly the server's certificate. Its ID token validator
  // hands `agent` to jose's JWKS fetch, which takes a node:https Agent (the option is typed for undici's).
  type Options = ConstructorParameters<typeof AuthenticationClient>[0];
  const agent = new https.Agent({ ca }) as unknown as Options['agent'];
  auth = new AuthenticationClient({ domain: server.domain, clientId, clientSecret, fetch: caFetch(ca) as unknown as typeof fetch, agent });
});

after(async () => {
  await cleanUp([server], [server.dataDir]);
});

describe('MFA with the auth0 SDK over HTTPS', () => {
  let secret: string;
  let recovery: string;

  const totp = () => new TOTP({ secret: Secret.fromBase32(secret) });

  it('a password login answers mfa_required; enrolment returns an OTP secret; the OTP grant logs in with amr mfa', async () => {
    const mfaToken = await sdkLoginNeedingMfa();
    const associated = await call('POST', '/mfa/associate', { token: mfaToken, body: { authenticator_types: ['otp'] } });
    assert.equal(associated.status, 200, associated.text);
    const body = associated.json<{ secret: string; barcode_uri: string; recovery_codes: string[] }>();
    secret = body.secret;
    recovery = body.recovery_codes[0]!;
    assert.ok(body.barcode_uri.startsWith('otpauth://totp/'));

    const res = await grant({ grant_type: 'http://auth0.com/oauth/grant-type/mfa-otp', mfa_token: mfaToken, otp: totp().generate() });
    assert.equal(res.status, 200, res.text);
    const tokens = res.json<{ id_token: string; access_token: string }>();
    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`), { [joseCustomFetch]: caFetch(ca) });
    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: `https://${server.domain}/`, audience: clientId });
    assert.deepEqual(payload.amr, ['mfa']);
  });

  it('the same OTP is refused for a second login', async () => {
    // The next time step's code: within the accepted drift, and never used before.
    const code = totp().generate({ timestamp: Date.now() + 30_000 });
    const first = await grant({ grant_type: 'http://auth0.com/oauth/grant-type/mfa-otp', mfa_token: await sdkLoginNeedingMfa(), otp: code });
    assert.equal(first.status, 200, first.text);
    const second = await grant({ grant_type: 'http://auth0.com/oauth/grant-type/mfa-otp', mfa_token: await sdkLoginNeedingMfa(), otp: code });
    assert.equal(second.status, 403, second.text);
    assert.deepEqual(second.json(), { error: 'invalid_grant', error_description: 'Invalid otp_code.' });
  });

  it('the recovery-code grant logs in once per code and hands out the next one', async () => {
    const res = await grant({ grant_type: 'http://auth0.com/oauth/grant-type/mfa-recovery-code', mfa_token: await sdkLoginNeedingMfa(), recovery_code: recovery });
    assert.equal(res.status, 200, res.text);
    const next = res.json<{ recovery_code: string }>().recovery_code;
    assert.match(next, /^[A-Z0-9]{24}$/);
    const again = await grant({ grant_type: 'http://auth0.com/oauth/grant-type/mfa-recovery-code', mfa_token: await sdkLoginNeedingMfa(), recovery_code: recovery });
    assert.equal(again.status, 403, again.text);
  });
});

/** The newest code mailed to `email`, from the server's outbox file (written just after the answer). */
async function outboxCode(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  let code: string | undefined;
  await waitFor(() => {
    if (!fs.existsSync(outbox)) return false;
    const mails = fs
      .readFileSync(outbox, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { to: string; text: string })
      .filter((mail) => mail.to === email);
    code = /is (\d{6})/.exec(mails.at(-1)?.text ?? '')?.[1];
    return code !== undefined;
  }, 10_000);
  assert.ok(code, `a code mailed to ${email}`);
  return code;
}

describe('passwordless email with the auth0 SDK over HTTPS', () => {
  it('sendEmail with a code, then loginWithEmail; the code does not work twice', async () => {
    // The MFA policy of the suite above would ask this login for a second factor too.
    await management(adminToken, 'PUT', '/guardian/policies', []);
    await auth.passwordless.sendEmail({ email: PASSWORDLESS_EMAIL, send: 'code' });
    const code = await outboxCode(PASSWORDLESS_EMAIL);
    const { data } = await auth.passwordless.loginWithEmail({ email: PASSWORDLESS_EMAIL, code, scope: 'openid email' });
    const claims = decodeJwt(data.id_token!);
    assert.equal(claims.email, PASSWORDLESS_EMAIL);
    assert.match(claims.sub!, /^email\|/);
    const again = await auth.passwordless.loginWithEmail({ email: PASSWORDLESS_EMAIL, code }).then(
      () => assert.fail('a code logged in twice'),
      (error: { statusCode?: number; error?: string; error_description?: string }) => error,
    );
    assert.equal(again.statusCode, 403);
    assert.equal(again.error, 'invalid_grant');
    assert.equal(again.error_description, 'Wrong email or verification code.');
  });
});
