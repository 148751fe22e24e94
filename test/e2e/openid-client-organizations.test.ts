/**
 * Organizations in login end to end over real HTTPS: openid-client 6 as a
 * B2B web application logs a member into an organization by name and by id,
 * and an invitee accepts an invitation (from the invitation URL the
 * Management API mailed), each getting `org_id` in the ID and access tokens
 * that openid-client validates. The hosted pages are driven by a scripted
 * browser (./support/browser.ts); the application's callback is on
 * 127.0.0.1 where nothing listens, so the browser stops there and hands the
 * URL to openid-client.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify } from 'jose';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { readForm, ScriptedBrowser } from './support/browser.js';
import { managementApi, type ManagementApi } from './support/chromium.js';
import { caFetch, cleanUp, waitFor } from './support/https.js';

const PASSWORD = 'correct horse battery staple';

let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let config: client.Configuration;
let callback: string;
let api: string;
let organization: { id: string; name: string };
let jwks: ReturnType<typeof createRemoteJWKSet>;

before(async () => {
  server = await startServerProcess();
  ca = fs.readFileSync(server.certFile);
  management = await managementApi(server);
  callback = `http://127.0.0.1:${await freePort()}/callback`;
  api = `https://b2b-${randomBytes(4).toString('hex')}.example.com/`;
  await management('POST', '/resource-servers', { identifier: api, name: 'B2B API', skip_consent_for_verifiable_first_party_clients: true, scopes: [{ value: 'read:projects' }] });
  const app = await management('POST', '/clients', {
    name: 'B2B app',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code'],
    callbacks: [callback],
    organization_usage: 'require',
    organization_require_behavior: 'no_prompt',
    initiate_login_uri: 'https://b2b.example.com/login',
  });
  const connection = await management('POST', '/connections', { name: 'b2b-users', strategy: 'auth0', enabled_clients: [app.client_id] });
  organization = (await management('POST', '/organizations', { name: 'initech', display_name: 'Initech' })) as { id: string; name: string };
  await management('POST', `/organizations/${organization.id}/enabled_connections`, { connection_id: connection.id });
  const member = await management('POST', '/users', { connection: 'b2b-users', email: 'peter@initech.example', password: PASSWORD });
  await management('POST', `/organizations/${organization.id}/members`, { members: [member.user_id] });
  await management('POST', '/users', { connection: 'b2b-users', email: 'milton@initech.example', password: PASSWORD });
  const secret = app.client_secret as string;
  config = await client.discovery(new URL(`${server.baseUrl}/`), app.client_id as string, secret, client.ClientSecretBasic(secret), { [client.customFetch]: caFetch(ca) });
  jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!), { [joseCustomFetch]: caFetch(ca) });
});

after(async () => {
  if (server) await cleanUp([server], [server.dataDir]);
});

/** A login to the organization through /authorize with `extra` parameters; the tokens openid-client obtains. */
async function logIn(email: string, extra: Record<string, string>) {
  const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callback,
    scope: 'openid email',
    audience: api,
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
    ...extra,
  });
  const toLogin = await browser.navigate(url);
  assert.equal(toLogin.last.status, 200, toLogin.last.text.slice(0, 300));
  const form = readForm(toLogin.last.text, toLogin.hops.at(-1)!.url);
  const done = await browser.submit(form.action, { ...form.hidden, username: email, password: PASSWORD });
  assert.ok(done.leftTo, `expected the callback, got ${done.last.status} ${done.last.text.slice(0, 200)}`);
  return client.authorizationCodeGrant(config, done.leftTo, { pkceCodeVerifier, expectedState, expectedNonce });
}

describe('organizations in login through openid-client', () => {
  test('a member logs in to the organization by name and by id: org_id in both tokens', async () => {
    for (const org of [organization.name, organization.id]) {
      const tokens = await logIn('peter@initech.example', { organization: org });
      assert.equal(tokens.claims()?.org_id, organization.id);
      const access = (await jwtVerify(tokens.access_token, jwks, { audience: api })).payload;
      assert.equal(access.org_id, organization.id);
    }
  });

  test('an invitee accepts the mailed invitation: a member afterwards, with org_id in the tokens', async () => {
    const created = await management('POST', `/organizations/${organization.id}/invitations`, {
      inviter: { name: 'Bill Lumbergh' },
      invitee: { email: 'milton@initech.example' },
      client_id: config.clientMetadata().client_id,
    });
    const link = new URL(created.invitation_url as string);
    const outbox = path.join(server.dataDir, 'outbox.jsonl');
    const mailed = () =>
      fs.existsSync(outbox) &&
      fs
        .readFileSync(outbox, 'utf8')
        .split('\n')
        .some((line) => line.includes('milton@initech.example') && line.includes(link.searchParams.get('invitation')!));
    assert.ok(await waitFor(mailed, 10_000), 'the invitation link was mailed to the invitee');
    const tokens = await logIn('milton@initech.example', { organization: link.searchParams.get('organization')!, invitation: link.searchParams.get('invitation')! });
    assert.equal(tokens.claims()?.org_id, organization.id);
    const members = (await management('GET', `/organizations/${organization.id}/members`)) as unknown as { email: string }[];
    assert.ok(members.some((m) => m.email === 'milton@initech.example'));
  });

  test('a login without the organization is refused on this require client', async () => {
    const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256', state: 's' });
    const refused = await browser.navigate(url);
    assert.equal(refused.leftTo?.searchParams.get('error'), 'invalid_request');
  });
});
