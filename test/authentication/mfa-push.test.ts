/**
 * MFA by push notification end to end: the device protocol (enrolment by the
 * QR code's transaction, a public key, signed answers), the mfa-oob grant's
 * polling (authorization_pending, slow_down, access_denied, tokens), the
 * hosted waiting page, and the two providers over their real client
 * protocols against local stand-ins: APNs over HTTP/2 with the tenant's p12
 * client certificate (the stand-in checks it), SNS through the AWS SDK
 * (CreatePlatformEndpoint, Publish), and FCM to Android devices (the HTTP v1
 * API with a service account's signed assertion exchanged at the token
 * endpoint, and the legacy API with a server key).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, inlineScripts, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { enrolPushDevice, pushAnswer, signDeviceJwt, type DevicePost, type PushDevice as Device } from '../helpers/push-device.js';
import { PUSH_WAIT_HASH } from '../../src/authentication/pages/html.js';
import { PUSH_WAIT_SCRIPT } from '../../src/authentication/pages/push-wait.js';
import { startApnsStandIn, startSnsStandIn, type ApnsStandIn, type SnsStandIn } from '../helpers/push-stand-ins.js';
import { startFcmStandIn, type FcmStandIn } from '../helpers/fcm-stand-in.js';
import { generateKeyPairSync } from 'node:crypto';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const BUNDLE = 'com.example.guardian';
const APNS_SUBJECT = 'Apple Push Services: com.example.guardian';
const AWS_KEY_ID = 'AKIAEXAMPLEKEYID0001';
const CALLBACK = 'https://app.example.com/callback';
const FCM_SERVER_KEY = 'AAAA-legacy-server-key-0123456789';
const SERVICE_ACCOUNT_KEYS = generateKeyPairSync('rsa', { modulusLength: 2048 });
const SERVICE_ACCOUNT = {
  type: 'service_account',
  project_id: 'guardian-android',
  client_email: 'push@guardian-android.iam.gserviceaccount.com',
  private_key: SERVICE_ACCOUNT_KEYS.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  // Not followed: the operator's GATEHOUSE_FCM_TOKEN_URL is.
  token_uri: 'https://attacker.example.com/token',
};

describe('MFA by push notification', () => {
  let t: TestApp;
  let apns: ApnsStandIn;
  let sns: SnsStandIn;
  let fcm: FcmStandIn;
  let app: TestClient;
  const baseUrl = `https://${DOMAIN}/guardian`;
  /** The device each user enrolled (the tests run in order). */
  const devices = new Map<string, Device>();

  const mgmt = async (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const json = (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { host: DOMAIN, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers }, ...(body !== undefined && { payload: JSON.stringify(body) }) });
  const mfaToken = async (email: string) => {
    const res = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
    assert.equal(res.statusCode, 403, res.body);
    return (res.json() as { mfa_token: string }).mfa_token;
  };
  const poll = (mfa_token: string, oob_code: string) => tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token, oob_code });

  const post: DevicePost = async (path, body, headers) => {
    const res = await json('POST', path, body, headers);
    return { status: res.statusCode, text: res.body };
  };
  /** A device enrols through the barcode's transaction with a new key pair. */
  const enrolDevice = (barcodeUri: string, alg: 'ES256' | 'RS256' = 'ES256', service: 'APNS' | 'GCM' = 'APNS') => enrolPushDevice(barcodeUri, baseUrl, post, alg, service);
  /** What the device sends about a transaction, at the context's time. */
  const deviceJwt = (device: Device, txn: string, audience: string, claims: Record<string, unknown> = {}, key?: CryptoKey) => signDeviceJwt(device, txn, audience, t.ctx.now(), claims, key);
  const answer = async (device: Device, txn: string, accepted: boolean, key?: CryptoKey) =>
    json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${await deviceJwt(device, txn, `${baseUrl}/api/resolve-transaction`, pushAnswer(accepted), key)}` });
  const lastTxn = () => (apns.notifications.at(-1)!.payload.gatehouse as { txn: string }).txn;

  /** Enrols `email` by push and completes that first login. */
  const enrol = async (email: string, service: 'APNS' | 'GCM' = 'APNS'): Promise<Device> => {
    const token = await mfaToken(email);
    const res = await json('POST', '/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['auth0'] }, { authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { authenticator_type: string; oob_channel: string; oob_code: string; barcode_uri: string };
    assert.equal(body.oob_channel, 'auth0');
    const pending = await poll(token, body.oob_code);
    assert.equal(pending.statusCode, 400, pending.body);
    assert.equal((pending.json() as { error: string }).error, 'authorization_pending');
    const device = await enrolDevice(body.barcode_uri, 'ES256', service);
    const done = await withClockAdvanced(t, 6000, () => poll(token, body.oob_code));
    assert.equal(done.statusCode, 200, done.body);
    devices.set(email, device);
    return device;
  };

  const challenge = async (token: string) => {
    const res = await json('POST', '/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: token, challenge_type: 'oob', oob_channel: 'auth0' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { challenge_type: string; oob_code: string; binding_method?: string };
    assert.equal(body.challenge_type, 'oob');
    assert.equal(body.binding_method, undefined);
    return body.oob_code;
  };

  before(async () => {
    apns = await startApnsStandIn(APNS_SUBJECT);
    sns = await startSnsStandIn(AWS_KEY_ID);
    fcm = await startFcmStandIn({ ...SERVICE_ACCOUNT, publicKey: SERVICE_ACCOUNT_KEYS.publicKey }, FCM_SERVER_KEY);
    t = await createTestApp({
      env: { GATEHOUSE_APNS_URL: apns.url, GATEHOUSE_SNS_ENDPOINT: sns.url, GATEHOUSE_PUSH_CA_FILE: apns.caFile, GATEHOUSE_FCM_URL: fcm.url, GATEHOUSE_FCM_TOKEN_URL: fcm.tokenUrl },
    });
    app = await insertClient(t, { grant_types: ['http://auth0.com/oauth/grant-type/password-realm', MFA_OOB] });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    for (const email of ['push1@example.com', 'push2@example.com', 'push3@example.com', 'push4@example.com', 'android@example.com']) await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD });
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/push-notification', { enabled: true })).statusCode, 200);
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    const set = await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/apns', { sandbox: false, bundle_id: BUNDLE, p12: await apns.providerP12(APNS_SUBJECT) });
    assert.equal(set.statusCode, 200, set.body);
    await mgmt('PUT', '/api/v2/guardian/factors/push-notification/selected-provider', { provider: 'direct' });
  });
  after(async () => {
    await t.close();
    await apns.close();
    await sns.close();
    await fcm.close();
  });

  it('enrols a device by the QR code transaction; the oob login is approved through APNs with a signed answer', async () => {
    const device = await enrol('push1@example.com');
    const listed = (await json('GET', '/mfa/authenticators', undefined, { authorization: `Bearer ${await mfaToken('push1@example.com')}` })).json() as Array<Record<string, unknown>>;
    assert.deepEqual(listed.find((a) => a.oob_channel === 'auth0'), { id: `push|${device.id}`, authenticator_type: 'oob', active: true, oob_channel: 'auth0', name: 'My phone' });

    const token = await mfaToken('push1@example.com');
    const oobCode = await challenge(token);
    const seen = apns.notifications.at(-1)!;
    assert.equal(seen.deviceToken, device.token);
    assert.equal(seen.headers['apns-topic'], BUNDLE);
    assert.equal(seen.headers['apns-push-type'], 'alert');
    const txn = lastTxn();
    assert.match(txn, /^txn_/);

    const pending = await poll(token, oobCode);
    assert.deepEqual([pending.statusCode, pending.json()], [400, { error: 'authorization_pending', error_description: 'Authorization pending: please repeat the request in a few seconds.' }]);

    // The device reads the transaction, then approves it.
    const read = await json('GET', `/guardian/api/transactions/${txn}`, undefined, { authorization: `Bearer ${await deviceJwt(device, txn, `${baseUrl}/api/transactions`)}` });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual({ ...(read.json() as object), expires_at: 'x' }, { transaction_id: txn, status: 'pending', client_name: 'Test client', expires_at: 'x' });
    assert.equal((await answer(device, txn, true)).statusCode, 204);
    assert.equal((await answer(device, txn, false)).statusCode, 409, 'an answered transaction cannot be answered again');

    const tokens = await withClockAdvanced(t, 6000, () => poll(token, oobCode));
    assert.equal(tokens.statusCode, 200, tokens.body);
    const body = tokens.json() as { access_token: string; id_token?: string };
    assert.ok(body.access_token);
    if (body.id_token) assert.deepEqual(decodeJwt(body.id_token).amr, ['mfa']);
    const again = await withClockAdvanced(t, 12_000, () => poll(token, oobCode));
    assert.equal(again.statusCode, 403, 'the approved challenge and its mfa_token are spent');
  });

  it('polling faster than the interval is slow_down; a denied push is access_denied "MFA Authorization rejected."', async () => {
    const device = await enrol('push2@example.com');
    const token = await mfaToken('push2@example.com');
    const oobCode = await challenge(token);
    assert.equal((await poll(token, oobCode)).statusCode, 400);
    const fast = await poll(token, oobCode);
    assert.deepEqual([fast.statusCode, (fast.json() as { error: string }).error], [400, 'slow_down']);
    const paced = await withClockAdvanced(t, 6000, () => poll(token, oobCode));
    assert.equal((paced.json() as { error: string }).error, 'authorization_pending');

    assert.equal((await answer(device, lastTxn(), false)).statusCode, 204);
    const denied = await withClockAdvanced(t, 12_000, () => poll(token, oobCode));
    assert.deepEqual([denied.statusCode, denied.json()], [400, { error: 'access_denied', error_description: 'MFA Authorization rejected.' }]);
  });

  it('refuses an approval with a bad signature, another key, the wrong audience or the wrong issuer; the push stays pending', async () => {
    const device = await enrol('push3@example.com');
    const token = await mfaToken('push3@example.com');
    const oobCode = await challenge(token);
    const txn = lastTxn();
    const other = await generateKeyPair('ES256');
    assert.equal((await answer(device, txn, true, other.privateKey)).statusCode, 401, 'signed by a key that is not the device’s');

    const good = await deviceJwt(device, txn, `${baseUrl}/api/resolve-transaction`, { auth0_guardian_method: 'push', auth0_guardian_accepted: true });
    const [header, payload, signature] = good.split('.');
    const flipped = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const bad = await json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${flipped}` });
    assert.deepEqual([bad.statusCode, (bad.json() as { error: string }).error], [401, 'invalid_token']);
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(good), auth0_guardian_accepted: true, exp: Math.floor(t.ctx.now() / 1000) + 3600 })).toString('base64url')}.${signature}`;
    assert.equal((await json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${tampered}` })).statusCode, 401);
    const wrongAudience = await deviceJwt(device, txn, `${baseUrl}/api/transactions`, { auth0_guardian_method: 'push', auth0_guardian_accepted: true });
    assert.equal((await json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${wrongAudience}` })).statusCode, 401);
    const otherDevice = await new SignJWT({ auth0_guardian_method: 'push', auth0_guardian_accepted: true }).setProtectedHeader({ alg: 'ES256' }).setIssuer('dev_someoneelse0000').setSubject(txn).setAudience(`${baseUrl}/api/resolve-transaction`).setIssuedAt().setExpirationTime('2m').sign(other.privateKey);
    assert.equal((await json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${otherDevice}` })).statusCode, 401);
    const expired = await withClockAdvanced(t, -600_000, () => deviceJwt(device, txn, `${baseUrl}/api/resolve-transaction`, { auth0_guardian_method: 'push', auth0_guardian_accepted: true }));
    assert.equal((await json('POST', '/guardian/api/resolve-transaction', undefined, { authorization: `Bearer ${expired}` })).statusCode, 401);

    const still = await poll(token, oobCode);
    assert.equal((still.json() as { error: string }).error, 'authorization_pending');
  });

  it('refuses an enrolment with a spent or unknown transaction, or a private or weak key', async () => {
    const token = await mfaToken('push4@example.com');
    const res = (await json('POST', '/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['auth0'] }, { authorization: `Bearer ${token}` })).json() as { barcode_uri: string };
    const tx = new URL(res.barcode_uri).searchParams.get('enrollment_tx_id')!;
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const enrolWith = (ticket: string, key: unknown) => json('POST', '/guardian/api/enroll', { push_credentials: { service: 'APNS', token: 'device-token-1' }, public_key: key }, { authorization: `Ticket id="${ticket}"` });
    assert.equal((await enrolWith(tx, await exportJWK(privateKey))).statusCode, 400, 'a private key is refused');
    assert.equal((await enrolWith(tx, { kty: 'oct', k: 'AAAA' })).statusCode, 400);
    assert.equal((await enrolWith('etx_unknown', await exportJWK(publicKey))).statusCode, 401);
    assert.equal((await enrolWith(tx, await exportJWK(publicKey))).statusCode, 201);
    assert.equal((await enrolWith(tx, await exportJWK(publicKey))).statusCode, 401, 'an enrolment transaction works once');
  });

  it('the hosted login sends a push; its waiting page asks the status route, and its form completes once the device approves', async () => {
    const web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    await mgmt('PATCH', `/api/v2/connections/${(await t.ctx.stores.connections.getByName(t.tenant.id, REALM))!.id}`, { enabled_clients: [app.client_id, web.client_id] });
    const connection = (await t.ctx.stores.connections.getByName(t.tenant.id, REALM))!;
    const user = (await t.ctx.stores.users.findByEmail(t.tenant.id, connection.id, 'push1@example.com'))!;
    const device = (await t.ctx.stores.mfa.authenticators(t.tenant.id, user.user_id)).find((a) => a.type === 'push')!;
    const browser = new Browser(t);
    const done = await browser.login(authorizeUrl(web.client_id, CALLBACK), 'push1@example.com', PASSWORD);
    const page = await browser.get(done.headers.location as string);
    assert.match(page.body, /Send a notification/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /script-src|connect-src/, 'the offer page runs no script');
    const state = hidden(page.body, 'state');
    const sent = await browser.post('/mfa/send', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'push' });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.doesNotMatch(sent.body, /http-equiv="refresh"/, 'nothing reloads the page');
    assert.match(sent.body, /push-waiting/);
    const csp = String(sent.headers['content-security-policy']);
    assert.ok(csp.split('; ').includes(`script-src ${PUSH_WAIT_HASH}`), csp);
    assert.ok(csp.split('; ').includes("connect-src 'self'"), csp);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.deepEqual(inlineScripts(sent.body), [PUSH_WAIT_SCRIPT], 'the one script, whose hash the CSP allows');
    assert.doesNotMatch(sent.body, / on[a-z]+=/i, 'no event handler attributes');
    const statusUrl = /data-push-status="([^"]+)"/.exec(sent.body)![1]!.replace(/&amp;/g, '&');
    const oobCode = hidden(sent.body, 'oob_code');
    assert.equal(statusUrl, `/mfa/push-status?state=${encodeURIComponent(state)}&oob_code=${encodeURIComponent(oobCode)}`);
    assert.equal(/data-push-seconds="(\d+)"/.exec(sent.body)![1], '300', 'it asks no longer than the challenge lives');

    const pending = await browser.get(statusUrl);
    assert.deepEqual([pending.statusCode, pending.json()], [200, { status: 'pending' }]);
    assert.equal(pending.headers['cache-control'], 'no-store');
    assert.match(String(pending.headers['content-type']), /^application\/json/);

    // Refused, and nothing told: another browser, no or another state, an unknown or missing oob_code.
    const stranger = new Browser(t);
    const other = await stranger.get(statusUrl);
    assert.deepEqual([other.statusCode, (other.json() as { error: string }).error], [400, 'invalid_request'], other.body);
    assert.doesNotMatch(other.body, /pending|done/);
    assert.equal((await browser.get(`/mfa/push-status?oob_code=${encodeURIComponent(oobCode)}`)).statusCode, 400);
    assert.equal((await browser.get(`/mfa/push-status?state=nosuchstate&oob_code=${encodeURIComponent(oobCode)}`)).statusCode, 400);
    const unknown = await browser.get(`/mfa/push-status?state=${encodeURIComponent(state)}&oob_code=nosuchcode`);
    assert.deepEqual([unknown.statusCode, (unknown.json() as { error: string }).error], [404, 'invalid_request'], unknown.body);
    assert.equal((await browser.get(`/mfa/push-status?state=${encodeURIComponent(state)}`)).statusCode, 404);
    assert.equal((await browser.get(`${statusUrl}&oob_code=again`)).statusCode, 400, 'a repeated parameter');
    assert.deepEqual((await browser.get(statusUrl)).json(), { status: 'pending' }, 'asking changed nothing');

    // The device push1 enrolled in the first test gets the notification and approves it.
    const enrolled = devices.get('push1@example.com')!;
    assert.equal(enrolled.id, device.id);
    assert.equal(apns.notifications.at(-1)!.deviceToken, enrolled.token);
    assert.equal((await answer(enrolled, lastTxn(), true)).statusCode, 204);
    const answered = await browser.get(statusUrl);
    assert.deepEqual([answered.statusCode, answered.json()], [200, { status: 'done' }]);
    assert.equal((await stranger.get(statusUrl)).statusCode, 400, 'still nothing for another browser');

    // What the script then does, and what the button does without it: the form's post.
    const approved = await browser.post('/mfa', { state, csrf_token: hidden(sent.body, 'csrf_token'), method: 'push', oob_code: oobCode });
    assert.ok(redirectParams(approved, CALLBACK).get('code'), approved.body);
    const after = await browser.get(statusUrl);
    assert.equal(after.statusCode, 400, 'the transaction is spent');
  });

  it('through SNS: the endpoint is created on the platform application and the notification published with the configured keys', async () => {
    const apnsArn = 'arn:aws:sns:eu-west-1:123456789012:app/APNS/guardian';
    const set = await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/sns', { aws_access_key_id: AWS_KEY_ID, aws_secret_access_key: 'secret-access-key-0123456789', aws_region: 'eu-west-1', sns_apns_platform_application_arn: apnsArn, sns_gcm_platform_application_arn: null });
    assert.equal(set.statusCode, 200, set.body);
    await mgmt('PUT', '/api/v2/guardian/factors/push-notification/selected-provider', { provider: 'sns' });
    try {
      const device = devices.get('push2@example.com')!;
      const token = await mfaToken('push2@example.com');
      const sent = apns.notifications.length;
      const oobCode = await challenge(token);
      assert.equal(apns.notifications.length, sent, 'nothing went to APNs directly');
      const published = sns.published.at(-1)!;
      assert.equal(published.platformApplicationArn, apnsArn);
      assert.equal(published.token, device.token);
      const txn = (JSON.parse(published.message.APNS!) as { gatehouse: { txn: string } }).gatehouse.txn;
      assert.equal((await answer(device, txn, true)).statusCode, 204);
      const tokens = await poll(token, oobCode);
      assert.equal(tokens.statusCode, 200, tokens.body);

      await mgmt('PATCH', '/api/v2/guardian/factors/push-notification/providers/sns', { aws_access_key_id: 'AKIAWRONGKEY00000000' });
      const refused = await json('POST', '/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: await mfaToken('push2@example.com'), challenge_type: 'oob' });
      assert.deepEqual([refused.statusCode, refused.json()], [502, { error: 'server_error', error_description: 'The push notification could not be sent.' }]);
    } finally {
      await mgmt('PUT', '/api/v2/guardian/factors/push-notification/selected-provider', { provider: 'direct' });
    }
  });

  it('to an Android device through FCM: the legacy API with the server key, then HTTP v1 with the service account; credentials checked and never read back', async () => {
    const device = await enrol('android@example.com', 'GCM');
    const challengeOf = async () => json('POST', '/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: await mfaToken('android@example.com'), challenge_type: 'oob' });
    // No FCM provider yet: APNs cannot reach an Android device.
    const unconfigured = await challengeOf();
    assert.deepEqual([unconfigured.statusCode, (unconfigured.json() as { error: string }).error], [400, 'invalid_request']);
    assert.match(unconfigured.body, /GCM devices need an FCM provider/);

    const legacy = await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcm', { server_key: FCM_SERVER_KEY });
    assert.deepEqual([legacy.statusCode, legacy.json()], [200, {}]);
    const sentApns = apns.notifications.length;
    const token = await mfaToken('android@example.com');
    const oobCode = await challenge(token);
    assert.equal(apns.notifications.length, sentApns, 'nothing went to APNs');
    const first = fcm.messages.at(-1)!;
    assert.equal(first.api, 'legacy');
    assert.equal(first.body.to, device.token);
    const txn = (first.body.data as { txn: string }).txn;
    assert.match(txn, /^txn_/);
    assert.equal((await answer(device, txn, true)).statusCode, 204);
    assert.equal((await withClockAdvanced(t, 6000, () => poll(token, oobCode))).statusCode, 200);

    // A service account's key that is not one is refused, and changes nothing.
    for (const bad of ['not json', JSON.stringify({ ...SERVICE_ACCOUNT, private_key: 'nope' }), JSON.stringify({ ...SERVICE_ACCOUNT, project_id: undefined })]) {
      const refused = await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcmv1', { server_credentials: bad });
      assert.equal(refused.statusCode, 400, bad);
      assert.match(refused.body, /on property server_credentials/);
    }
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcmv1', { server_credentials: JSON.stringify({ ...SERVICE_ACCOUNT, private_key: ec }) })).statusCode, 400);
    assert.equal((await challengeOf()).statusCode, 200, 'still the legacy API');
    assert.equal(fcm.messages.at(-1)!.api, 'legacy');

    const v1 = await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcmv1', { server_credentials: JSON.stringify(SERVICE_ACCOUNT) });
    assert.deepEqual([v1.statusCode, v1.json()], [200, {}]);
    const v1Token = await mfaToken('android@example.com');
    const v1Code = await challenge(v1Token);
    const sent = fcm.messages.at(-1)!;
    assert.deepEqual([sent.api, sent.project], ['v1', 'guardian-android']);
    const message = sent.body.message as { token: string; notification: { title: string }; data: { txn: string; dev: string } };
    assert.equal(message.token, device.token);
    assert.equal(message.data.dev, device.id);
    assert.equal(fcm.tokensIssued, 1, 'the assertion went to the operator\'s token endpoint, not the key\'s token_uri');
    assert.equal((await answer(device, message.data.txn, true)).statusCode, 204);
    assert.equal((await withClockAdvanced(t, 6000, () => poll(v1Token, v1Code))).statusCode, 200);
    assert.equal((await challengeOf()).statusCode, 200);
    assert.equal(fcm.tokensIssued, 1, 'the access token is reused until it expires');

    // PATCH without the member keeps it; the stored credentials are sealed, never in the row as given.
    assert.equal((await mgmt('PATCH', '/api/v2/guardian/factors/push-notification/providers/fcmv1', {})).statusCode, 200);
    const settings = await t.ctx.stores.guardian.get(t.tenant.id);
    assert.ok(settings.fcmv1_credentials_enc && !settings.fcmv1_credentials_enc.includes('PRIVATE KEY'));
    assert.ok(settings.fcm_server_key_enc && !settings.fcm_server_key_enc.includes(FCM_SERVER_KEY));
    // PUT without it clears it: back to the legacy API, whose key is now wrong: 502, nothing delivered.
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcmv1', {})).statusCode, 200);
    assert.equal((await mgmt('PATCH', '/api/v2/guardian/factors/push-notification/providers/fcm', { server_key: 'AAAA-a-revoked-key' })).statusCode, 200);
    const count = fcm.messages.length;
    const refused = await challengeOf();
    assert.deepEqual([refused.statusCode, refused.json()], [502, { error: 'server_error', error_description: 'The push notification could not be sent.' }]);
    assert.equal(fcm.messages.length, count);
    await mgmt('PUT', '/api/v2/guardian/factors/push-notification/providers/fcm', { server_key: null });
  });

  it('APNs refuses a provider certificate its CA did not sign: the challenge is 502, nothing is delivered', async () => {
    await mgmt('PATCH', '/api/v2/guardian/factors/push-notification/providers/apns', { p12: await apns.providerP12(APNS_SUBJECT, { foreign: true }) });
    try {
      const sent = apns.notifications.length;
      const refused = await json('POST', '/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: await mfaToken('push3@example.com'), challenge_type: 'oob' });
      assert.equal(refused.statusCode, 502, refused.body);
      assert.equal(apns.notifications.length, sent);
    } finally {
      await mgmt('PATCH', '/api/v2/guardian/factors/push-notification/providers/apns', { p12: await apns.providerP12(APNS_SUBJECT) });
    }
  });

  it('CIBA on the guardian-push channel: the request is pushed to the user\'s device, whose signed approval lets the client poll its tokens', async () => {
    const CIBA = 'urn:openid:params:grant-type:ciba';
    const created = await mgmt('POST', '/api/v2/clients', { name: 'Call centre', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', grant_types: [CIBA], async_approval_notification_channels: ['guardian-push'] });
    assert.equal(created.statusCode, 201, created.body);
    const bank = created.json() as { client_id: string; client_secret: string };
    const connection = (await t.ctx.stores.connections.getByName(t.tenant.id, REALM))!;
    const user = (await t.ctx.stores.users.findByEmail(t.tenant.id, connection.id, 'push2@example.com'))!;
    const device = devices.get('push2@example.com')!;
    const bcAuthorize = (userId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/bc-authorize',
        headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: bank.client_id, client_secret: bank.client_secret, scope: 'openid', binding_message: 'Transfer 42', login_hint: JSON.stringify({ format: 'iss_sub', iss: `https://${DOMAIN}/`, sub: userId }) }).toString(),
      });
    const res = await bcAuthorize(user.user_id);
    assert.equal(res.statusCode, 200, res.body);
    const { auth_req_id } = res.json() as { auth_req_id: string };
    const seen = apns.notifications.at(-1)!;
    assert.equal(seen.deviceToken, device.token);
    assert.equal((seen.payload.aps as { alert: { body: string } }).alert.body, 'Call centre: Transfer 42');
    const cibaPoll = () => tokenRequest(t.app, { grant_type: CIBA, auth_req_id, client_id: bank.client_id, client_secret: bank.client_secret });
    assert.equal(((await cibaPoll()).json() as { error: string }).error, 'authorization_pending');
    assert.equal((await answer(device, lastTxn(), true)).statusCode, 204);
    const tokens = await withClockAdvanced(t, 11_000, cibaPoll);
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal(decodeJwt((tokens.json() as { id_token: string }).id_token).sub, user.user_id);

    // A user without a push device cannot be asked on guardian-push alone.
    const plain = (await t.ctx.stores.users.findByEmail(t.tenant.id, connection.id, 'push4@example.com'))!;
    await t.ctx.stores.mfa.deleteAuthenticators(t.tenant.id, plain.user_id);
    const refused = await bcAuthorize(plain.user_id);
    assert.deepEqual([refused.statusCode, (refused.json() as { error: string }).error], [400, 'invalid_request']);
  });
});
