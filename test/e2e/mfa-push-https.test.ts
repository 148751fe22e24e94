/**
 * MFA by push notification end to end over real HTTPS against the built
 * server (its own process), configured through the Management API: the
 * push-notification factor, the APNs provider (a p12 client certificate;
 * GATEHOUSE_APNS_URL and GATEHOUSE_PUSH_CA_FILE point the server at the APNs
 * stand-in, HTTP/2 with that certificate checked), a policy requiring MFA, a
 * client and a user. A password-realm login answers mfa_required; the user
 * enrols a device by /mfa/associate's QR code transaction; a later login's
 * /mfa/challenge sends the notification through APNs, the mfa-oob grant is
 * pending until the device's signed approval, then answers the tokens.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify } from 'jose';
import { PUSH_POLL_INTERVAL } from '../../src/domain/mfa/push.js';
import { enrolPushDevice, pushAnswer, signDeviceJwt, type DevicePost, type PushDevice } from '../helpers/push-device.js';
import { startApnsStandIn, type ApnsStandIn } from '../helpers/push-stand-ins.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest, managementToken, sleep, waitFor } from './support/https.js';

const CONNECTION = 'push-e2e-users';
const EMAIL = 'push-e2e@example.com';
const PASSWORD = 'Correct horse battery staple 9';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const BUNDLE = 'com.example.guardian';
const APNS_SUBJECT = `Apple Push Services: ${BUNDLE}`;

let server: ServerProcess;
let apns: ApnsStandIn;
let ca: Buffer;
let clientId: string;
let clientSecret: string;

async function call(method: string, path: string, options: { token?: string; authorization?: string; body?: unknown } = {}) {
  const authorization = options.authorization ?? (options.token !== undefined ? `Bearer ${options.token}` : undefined);
  return httpsRequest(`${server.baseUrl}${path}`, {
    ca,
    method,
    headers: { ...(options.body !== undefined && { 'content-type': 'application/json' }), ...(authorization !== undefined && { authorization }) },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
}

async function management(token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await call(method, `/api/v2${path}`, { token, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.text === '' ? {} : res.json<Record<string, unknown>>();
}

const grant = (body: Record<string, string>) => call('POST', '/oauth/token', { body: { client_id: clientId, client_secret: clientSecret, ...body } });

/** A password-realm login, refused with mfa_required; its mfa_token. */
async function loginNeedingMfa(): Promise<string> {
  const res = await grant({ grant_type: PASSWORD_REALM, username: EMAIL, password: PASSWORD, realm: CONNECTION, scope: 'openid' });
  assert.equal(res.status, 403, res.text);
  const body = res.json<{ error: string; mfa_token: string }>();
  assert.equal(body.error, 'mfa_required');
  return body.mfa_token;
}

const poll = (mfaToken: string, oobCode: string) => grant({ grant_type: MFA_OOB, mfa_token: mfaToken, oob_code: oobCode });

before(async () => {
  apns = await startApnsStandIn(APNS_SUBJECT);
  server = await startServerProcess({ env: { GATEHOUSE_APNS_URL: apns.url, GATEHOUSE_PUSH_CA_FILE: apns.caFile } });
  ca = fs.readFileSync(server.certFile);
  const token = await managementToken(server);
  const created = await management(token, 'POST', '/clients', {
    name: 'Push e2e app',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: [PASSWORD_REALM, MFA_OOB],
  });
  clientId = created.client_id as string;
  clientSecret = created.client_secret as string;
  await management(token, 'POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
  await management(token, 'POST', '/users', { connection: CONNECTION, email: EMAIL, password: PASSWORD });
  assert.equal((await management(token, 'PUT', '/guardian/factors/push-notification', { enabled: true })).enabled, true);
  await management(token, 'PUT', '/guardian/factors/push-notification/providers/apns', { sandbox: false, bundle_id: BUNDLE, p12: await apns.providerP12(APNS_SUBJECT) });
  await management(token, 'PUT', '/guardian/factors/push-notification/selected-provider', { provider: 'direct' });
  await management(token, 'PUT', '/guardian/policies', ['all-applications']);
});

after(async () => {
  await cleanUp([server], [server.dataDir]);
  await apns.close();
});

describe('MFA by push notification over HTTPS', () => {
  let device: PushDevice;
  const guardianUrl = () => `${server.baseUrl}/guardian`;
  const post: DevicePost = async (path, body, headers) => call('POST', path, { body, ...(headers.authorization !== undefined && { authorization: headers.authorization }) });

  it('enrols a device through /mfa/associate with oob_channels ["auth0"]: the QR code transaction, then the enrolment login gets its tokens', async () => {
    const mfaToken = await loginNeedingMfa();
    const associated = await call('POST', '/mfa/associate', { token: mfaToken, body: { authenticator_types: ['oob'], oob_channels: ['auth0'] } });
    assert.equal(associated.status, 200, associated.text);
    const body = associated.json<{ authenticator_type: string; oob_channel: string; oob_code: string; barcode_uri: string }>();
    assert.deepEqual([body.authenticator_type, body.oob_channel], ['oob', 'auth0']);
    device = await enrolPushDevice(body.barcode_uri, guardianUrl(), post);
    const done = await poll(mfaToken, body.oob_code);
    assert.equal(done.status, 200, done.text);
    assert.ok(done.json<{ access_token?: string }>().access_token);
  });

  it('a later login: /mfa/challenge notifies the device through APNs; pending until its signed approval, then the tokens', async () => {
    const mfaToken = await loginNeedingMfa();
    const sent = apns.notifications.length;
    const challenged = await call('POST', '/mfa/challenge', { body: { client_id: clientId, client_secret: clientSecret, mfa_token: mfaToken, challenge_type: 'oob', oob_channel: 'auth0' } });
    assert.equal(challenged.status, 200, challenged.text);
    const { oob_code: oobCode, challenge_type: type } = challenged.json<{ oob_code: string; challenge_type: string }>();
    assert.equal(type, 'oob');

    assert.ok(await waitFor(() => apns.notifications.length > sent, 10_000), 'the notification reached APNs');
    const seen = apns.notifications.at(-1)!;
    assert.equal(seen.deviceToken, device.token);
    assert.equal(seen.headers['apns-topic'], BUNDLE);
    const txn = (seen.payload.gatehouse as { txn: string }).txn;
    assert.match(txn, /^txn_/);

    const pending = await poll(mfaToken, oobCode);
    assert.deepEqual([pending.status, pending.json()], [400, { error: 'authorization_pending', error_description: 'Authorization pending: please repeat the request in a few seconds.' }]);

    // The device reads the transaction, then approves it with its key.
    const read = await call('GET', `/guardian/api/transactions/${txn}`, { token: await signDeviceJwt(device, txn, `${guardianUrl()}/api/transactions`, Date.now()) });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json<{ client_name: string }>().client_name, 'Push e2e app');
    const forged = await call('POST', '/guardian/api/resolve-transaction', { token: `${await signDeviceJwt(device, txn, `${guardianUrl()}/api/resolve-transaction`, Date.now(), pushAnswer(true))}x` });
    assert.equal(forged.status, 401, 'a tampered signature is refused');
    const approved = await call('POST', '/guardian/api/resolve-transaction', { token: await signDeviceJwt(device, txn, `${guardianUrl()}/api/resolve-transaction`, Date.now(), pushAnswer(true)) });
    assert.equal(approved.status, 204, approved.text);

    // The client polls no faster than the interval the service states.
    await sleep(PUSH_POLL_INTERVAL * 1000 + 250);
    const tokens = await poll(mfaToken, oobCode);
    assert.equal(tokens.status, 200, tokens.text);
    const { id_token: idToken } = tokens.json<{ id_token: string; access_token: string }>();
    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`), { [joseCustomFetch]: caFetch(ca) });
    const { payload } = await jwtVerify(idToken, jwks, { issuer: `${server.baseUrl}/`, audience: clientId });
    assert.deepEqual(payload.amr, ['mfa']);
    const again = await poll(mfaToken, oobCode);
    assert.equal(again.status, 403, 'the approved challenge logs in once');
  });
});
