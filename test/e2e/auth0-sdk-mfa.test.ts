/**
 * Multi-factor authentication end to end over real HTTPS against the built
 * server: the official `auth0` SDK's AuthenticationClient (auth0/legacy)
 * makes the password-realm login, which answers `mfa_required`; the SDK has
 * no MFA calls, so /mfa/associate and the MFA grants are raw requests over
 * the same verified TLS. OTP codes are computed by otpauth (RFC 6238) in the
 * test from the secret the server returned.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { AuthenticationClient } from 'auth0/legacy';
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest, managementToken } from './support/https.js';

const CONNECTION = 'mfa-e2e-users';
const EMAIL = 'mfa-e2e@example.com';
const PASSWORD = 'Correct horse battery staple 9';
const GRANTS = ['password', 'http://auth0.com/oauth/grant-type/password-realm', 'http://auth0.com/oauth/grant-type/mfa-otp', 'http://auth0.com/oauth/grant-type/mfa-recovery-code'];

let server: ServerProcess;
let ca: Buffer;
let clientId: string;
let clientSecret: string;
let auth: AuthenticationClient;

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
  const created = await management(token, 'POST', '/clients', {
    name: 'MFA e2e app',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: GRANTS,
  });
  clientId = created.client_id as string;
  clientSecret = created.client_secret as string;
  await management(token, 'POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
  await management(token, 'POST', '/users', { connection: CONNECTION, email: EMAIL, password: PASSWORD });
  for (const factor of ['otp', 'recovery-code']) await management(token, 'PUT', `/guardian/factors/${factor}`, { enabled: true });
  await management(token, 'PUT', '/guardian/policies', ['all-applications']);
  auth = new AuthenticationClient({ domain: server.domain, clientId, clientSecret, fetch: caFetch(ca) as unknown as typeof fetch });
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
