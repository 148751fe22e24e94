/**
 * Signing key rotation against the built server over real HTTPS, with the
 * real clients: openid-client (discovery, client credentials, a user's
 * tokens with the ID token's signature checked against the JWKS, /userinfo),
 * jose's remote JWKS as a resource server keeps it, and the `auth0` SDK in
 * its own process (test/e2e/clients/auth0-sdk-signing-keys.ts, with
 * NODE_EXTRA_CA_CERTS).
 *
 * The story: tokens are taken, the key is rotated through the SDK, every
 * client keeps working (a JWKS cached before the rotation already holds the
 * new signing key, as the next key was published in advance; tokens from
 * before still verify), then the previous key is revoked through the SDK
 * and only the tokens it signed stop working.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch as joseCustomFetch, decodeProtectedHeader, jwtVerify } from 'jose';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import type { Outcome } from './clients/auth0-sdk-signing-keys.js';
import { caFetch, cleanUp, httpsRequest, runNode } from './support/https.js';

const SDK_SCRIPT = path.join(ROOT, 'test/e2e/clients/auth0-sdk-signing-keys.ts');
const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct-Horse-7-battery';

interface Key {
  kid: string;
  current: boolean;
  next: boolean;
  previous: boolean;
  revoked: boolean;
}

let server: ServerProcess;
let ca: Buffer;
let fetchWithCa: ReturnType<typeof caFetch>;
let issuer: URL;
let audience: string;
let admin: ReturnType<ServerProcess['admin']>;
let app: { client_id: string; client_secret: string };
const servers: ServerProcess[] = [];

/** A Management API call over HTTPS with a token from the admin client. */
async function management(method: string, url: string, body?: unknown) {
  const config = await discover(admin.client_id, admin.client_secret);
  const { access_token } = await client.clientCredentialsGrant(config, { audience });
  const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, {
    ca,
    method,
    headers: { authorization: `Bearer ${access_token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
  return res.json<unknown>();
}

function discover(clientId: string, clientSecret: string): Promise<client.Configuration> {
  return client.discovery(issuer, clientId, clientSecret, undefined, { [client.customFetch]: fetchWithCa, execute: [client.enableNonRepudiationChecks] });
}

/** A user's tokens through openid-client (password-realm grant, ID token signature checked against the JWKS). */
async function userTokens(config: client.Configuration) {
  return client.genericGrantRequest(config, PASSWORD_REALM, { username: 'rotation@example.com', password: PASSWORD, realm: REALM, scope: 'openid email' });
}

async function sdk(phase: 'rotate' | 'revoke', token: string, kid?: string): Promise<Record<string, Outcome>> {
  const input = { domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, phase, token, ...(kid && { kid }) };
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile };
  const result = await runNode(['--import', 'tsx', SDK_SCRIPT, JSON.stringify(input)], { cwd: ROOT, env, timeoutMs: 90_000 });
  assert.equal(result.code, 0, `the SDK client failed:\n${result.stderr}\n${result.stdout}`);
  return JSON.parse(result.stdout) as Record<string, Outcome>;
}

function value<T>(outcome: Outcome | undefined, name: string): T {
  assert.ok(outcome?.ok, `${name} failed: ${JSON.stringify(outcome)}`);
  return outcome.value as T;
}

const managementCall = (token: string) => httpsRequest(`${server.baseUrl}/api/v2/keys/signing`, { ca, headers: { authorization: `Bearer ${token}` } });

before(async () => {
  server = await startServerProcess();
  servers.push(server);
  ca = fs.readFileSync(server.certFile);
  fetchWithCa = caFetch(ca);
  issuer = new URL(`${server.baseUrl}/`);
  admin = server.admin();
  audience = `https://${server.domain}/api/v2/`;
  app = (await management('POST', '/clients', {
    name: 'Rotation app',
    app_type: 'regular_web',
    grant_types: [PASSWORD_REALM],
    token_endpoint_auth_method: 'client_secret_post',
  })) as { client_id: string; client_secret: string };
  await management('POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
  await management('POST', '/users', { connection: REALM, email: 'rotation@example.com', password: PASSWORD });
});

after(async () => {
  await cleanUp(servers, servers.map((s) => s.dataDir));
});

test('openid-client and the auth0 SDK keep working across a rotation; revocation ends only the old key', async () => {
  const adminConfig = await discover(admin.client_id, admin.client_secret);
  const appConfig = await discover(app.client_id, app.client_secret);
  // A resource server's JWKS, fetched once before the rotation and kept (jose refetches at most every 30 s).
  const cachedJwks = createRemoteJWKSet(new URL(adminConfig.serverMetadata().jwks_uri!), { [joseCustomFetch]: fetchWithCa });
  const verify = (token: string, jwks = cachedJwks) => jwtVerify(token, jwks, { issuer: issuer.href, audience, algorithms: ['RS256'] });

  const before = await client.clientCredentialsGrant(adminConfig, { audience });
  await verify(before.access_token);
  const userBefore = await userTokens(appConfig);
  const sub = userBefore.claims()!.sub;
  assert.equal((await client.fetchUserInfo(appConfig, userBefore.access_token, sub)).email, 'rotation@example.com');
  const oldKid = decodeProtectedHeader(before.access_token).kid!;

  // Rotation through the SDK.
  const rotation = await sdk('rotate', before.access_token);
  const keysBefore = value<Key[]>(rotation.keysBefore, 'keysBefore');
  assert.equal(keysBefore.find((k) => k.current)?.kid, oldKid);
  const nextKid = keysBefore.find((k) => k.next)!.kid;
  const rotated = value<{ kid: string; cert: string }>(rotation.rotate, 'rotate');
  const keysAfter = value<Key[]>(rotation.keysAfter, 'keysAfter');
  assert.deepEqual(
    keysAfter.map((k) => [k.kid, k.current, k.next, k.previous]),
    [[nextKid, true, false, false], [rotated.kid, false, true, false], [oldKid, false, false, true]],
  );
  assert.ok(value<number>(rotation.clientsAfterRotation, 'clientsAfterRotation') >= 1, 'the SDK client goes on with its token of the previous key');
  value(rotation.earlierTokenAfterRotation, 'earlierTokenAfterRotation');
  assert.deepEqual(value(rotation.settingsGet, 'settingsGet'), { friendly_name: 'Rotated Tenant', session_lifetime: 24 });

  // openid-client after the rotation: new tokens of the former next key, verified with the JWKS cached before it.
  const after = await client.clientCredentialsGrant(adminConfig, { audience });
  assert.equal(decodeProtectedHeader(after.access_token).kid, nextKid);
  await verify(after.access_token);
  await verify(before.access_token);
  const userAfter = await userTokens(appConfig);
  assert.equal(decodeProtectedHeader(userAfter.id_token!).kid, nextKid, 'openid-client checked an ID token of the new key');
  assert.equal((await client.fetchUserInfo(appConfig, userAfter.access_token, sub)).sub, sub);
  assert.equal((await client.fetchUserInfo(appConfig, userBefore.access_token, sub)).sub, sub, 'a token from before the rotation at /userinfo');
  assert.equal((await managementCall(before.access_token)).status, 200);

  // Revocation of the previous key through the SDK.
  const revocation = await sdk('revoke', before.access_token, oldKid);
  assert.equal(value<{ kid: string }>(revocation.revoke, 'revoke').kid, oldKid);
  assert.equal(value<Key>(revocation.revokedKey, 'revokedKey').revoked, true);
  const refused = revocation.earlierTokenAfterRevocation;
  assert.ok(refused && !refused.ok, 'the SDK with a token of the revoked key is refused');
  assert.equal(refused.statusCode, 401);
  assert.ok(value<number>(revocation.freshClientAfterRevocation, 'freshClientAfterRevocation') >= 1);

  const freshJwks = createRemoteJWKSet(new URL(adminConfig.serverMetadata().jwks_uri!), { [joseCustomFetch]: fetchWithCa });
  await assert.rejects(verify(before.access_token, freshJwks), { code: 'ERR_JWKS_NO_MATCHING_KEY' }, 'the revoked key has left the JWKS');
  await verify(after.access_token, freshJwks);
  assert.equal((await managementCall(before.access_token)).status, 401);
  await assert.rejects(client.fetchUserInfo(appConfig, userBefore.access_token, sub), 'a token of the revoked key at /userinfo');
  assert.equal((await client.fetchUserInfo(appConfig, (await userTokens(appConfig)).access_token, sub)).sub, sub);
  assert.equal((await managementCall((await client.clientCredentialsGrant(adminConfig, { audience })).access_token)).status, 200);
});
