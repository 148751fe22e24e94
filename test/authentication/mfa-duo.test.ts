/**
 * The `duo` second factor through Duo's Universal Prompt, against a local
 * HTTPS stand-in of Duo (test/helpers/duo-stand-in.ts, reached through
 * GATEHOUSE_DUO_URL and trusted through GATEHOUSE_DUO_CA_FILE): the MFA step
 * sends the browser to Duo with a request JWT (HS512 under the secret key)
 * for the user's email, Duo's code is redeemed with an HS512 client
 * assertion and its id_token checked, and the login ends with `amr: ["mfa"]`.
 * Refusals: Duo's denial (at the prompt or in the id_token) goes back to the
 * client as `access_denied`; an id_token signed with another key, for
 * another user, or a replayed code is refused; without
 * GATEHOUSE_OUTBOUND_ALLOW the loopback stand-in is never called; with the
 * settings incomplete the step does not send anyone to Duo.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { createTestApp, tempDir, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, pkce, redirectParams } from '../helpers/browser.js';
import { startDuoStandIn, type DuoStandIn } from '../helpers/duo-stand-in.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const IKEY = 'DIWJ8X6AEYOR5OMC6TQ1';
const SKEY = 'eGvC9Wq0Ys7oP2mXb4aQ1sT8uL6kJ3hF5dN0rZ2y';

interface Setup {
  t: TestApp;
  client: TestClient;
  newUser(email: string): Promise<void>;
}

async function setUp(env: Record<string, string>): Promise<Setup> {
  const t = await createTestApp({ env });
  const token = await t.managementToken();
  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, { token, ...(body !== undefined && { body }) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  };
  const client = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
  await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
  await mgmt('PUT', '/api/v2/guardian/factors/duo/settings', { ikey: IKEY, skey: SKEY, host: 'api-a1b2c3d4.duosecurity.com' });
  await mgmt('PUT', '/api/v2/guardian/factors/duo', { enabled: true });
  await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
  return { t, client, newUser: (email) => mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD }) };
}

describe('the duo factor (Universal Prompt)', () => {
  let standIn: DuoStandIn;
  let ca: Buffer;
  let caFile: string;
  let s: Setup;

  /** The stand-in's answer to the browser sent to Duo: where Duo sends it back. */
  const throughDuo = (url: string) =>
    new Promise<string>((resolve, reject) => {
      https.get(url, { ca }, (res) => {
        res.resume();
        if (res.statusCode !== 302) reject(new Error(`Duo answered ${res.statusCode}`));
        else resolve(res.headers.location!);
      }).on('error', reject);
    });
  const pathOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };

  /** Logs in with the password; returns the browser, the verifier and the MFA step's answer. */
  async function loginToDuo(setup: Setup, email: string) {
    const browser = new Browser(setup.t);
    const { verifier, challenge } = pkce();
    const done = await browser.login(authorizeUrl(setup.client.client_id, CALLBACK, { scope: 'openid email', code_challenge: challenge }), email, PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    assert.equal(new URL(done.headers.location as string, 'https://x').pathname, '/mfa');
    const mfa = await browser.get(done.headers.location as string);
    return { browser, verifier, mfa };
  }

  async function exchange(setup: Setup, res: LightMyRequestResponse, verifier: string) {
    const code = redirectParams(res, CALLBACK).get('code')!;
    const tokens = await tokenRequest(setup.t.app, { grant_type: 'authorization_code', client_id: setup.client.client_id, client_secret: setup.client.client_secret, code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    return decodeJwt((tokens.json() as { id_token: string }).id_token);
  }

  before(async () => {
    const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
    ca = Buffer.from(material.certPem);
    caFile = path.join(tempDir('duo-ca-'), 'ca.pem');
    fs.writeFileSync(caFile, ca);
    standIn = await startDuoStandIn({ cert: material.certPem, key: material.keyPem }, { ikey: IKEY, skey: SKEY });
    s = await setUp({ GATEHOUSE_DUO_URL: standIn.url, GATEHOUSE_DUO_CA_FILE: caFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES });
    await s.newUser('duo1@example.com');
  });
  after(async () => {
    await s.t.close();
    await standIn.close();
  });

  it('sends the browser to Duo with a signed request for the user; Duo’s answer completes the login with amr mfa', async () => {
    const { browser, verifier, mfa } = await loginToDuo(s, 'duo1@example.com');
    assert.equal(mfa.statusCode, 302, mfa.body);
    const prompt = new URL(mfa.headers.location as string);
    assert.equal(`${prompt.origin}${prompt.pathname}`, `${standIn.url}/oauth/v1/authorize`);
    assert.equal(prompt.searchParams.get('client_id'), IKEY);
    assert.ok(!prompt.toString().includes(SKEY), 'the secret key never leaves');

    const back = await throughDuo(prompt.toString());
    const seen = standIn.authorizations.at(-1)!;
    assert.equal(seen.duo_uname, 'duo1@example.com');
    assert.equal(seen.redirect_uri, 'https://tenant.test/mfa/duo/callback');
    assert.ok(typeof seen.state === 'string' && seen.state.length >= 22);

    const issued = standIn.tokensIssued;
    const done = await browser.get(pathOf(back));
    assert.equal(standIn.tokensIssued, issued + 1, 'the code was redeemed at Duo');
    assert.deepEqual((await exchange(s, done, verifier)).amr, ['mfa']);

    // The session has its second factor: the next authorization does not go to Duo.
    const again = await browser.get(authorizeUrl(s.client.client_id, CALLBACK));
    assert.ok(redirectParams(again, CALLBACK).get('code'));

    // Duo's answer again (a replayed callback): the code is spent at Duo, nothing new is granted.
    const replay = await new Browser(s.t).get(pathOf(back));
    assert.notEqual(replay.statusCode, 302);
  });

  it('a denial at the prompt, or in the id_token, goes back to the client as access_denied', async () => {
    standIn.refuse = true;
    try {
      const { browser, mfa } = await loginToDuo(s, 'duo1@example.com');
      const denied = await browser.get(pathOf(await throughDuo(mfa.headers.location as string)));
      const params = redirectParams(denied, CALLBACK);
      assert.equal(params.get('error'), 'access_denied');
      assert.equal(params.get('code'), null);
    } finally {
      standIn.refuse = false;
    }
    standIn.result = 'deny';
    try {
      const { browser, mfa } = await loginToDuo(s, 'duo1@example.com');
      const denied = await browser.get(pathOf(await throughDuo(mfa.headers.location as string)));
      assert.equal(redirectParams(denied, CALLBACK).get('error'), 'access_denied');
    } finally {
      standIn.result = 'allow';
    }
  });

  it('an id_token signed with another key, or for another user, is refused and the login does not go on', async () => {
    for (const idToken of [{ key: 'not-the-secret-key-of-this-application' }, { claims: { preferred_username: 'someone@example.com' } }, { claims: { nonce: 'another' } }]) {
      standIn.idToken = idToken;
      try {
        const { browser, mfa } = await loginToDuo(s, 'duo1@example.com');
        const refused = await browser.get(pathOf(await throughDuo(mfa.headers.location as string)));
        assert.equal(refused.statusCode, 400, JSON.stringify(idToken));
        assert.match(refused.body, /Two-step verification is required/);
        assert.equal(refused.headers.location, undefined);
      } finally {
        standIn.idToken = {};
      }
    }
  });

  it('a callback with a forged code does not pass; one without a code is a refusal', async () => {
    const { browser, mfa } = await loginToDuo(s, 'duo1@example.com');
    const back = new URL(await throughDuo(mfa.headers.location as string));
    back.searchParams.set('duo_code', 'forged');
    const forged = await browser.get(pathOf(back.toString()));
    assert.equal(forged.statusCode, 400);
    assert.equal(forged.headers.location, undefined);
    back.searchParams.delete('duo_code');
    const none = await browser.get(pathOf(back.toString()));
    assert.equal(redirectParams(none, CALLBACK).get('error'), 'access_denied');
  });

  it('with the settings incomplete, nobody is sent to Duo', async () => {
    await s.t.ctx.database.db.updateTable('guardian_duo').set({ skey_enc: null }).where('tenant_id', '=', s.t.tenant.id).execute();
    try {
      const { mfa } = await loginToDuo(s, 'duo1@example.com');
      assert.ok(!String(mfa.headers.location ?? '').startsWith(standIn.url), 'not sent to Duo');
      assert.equal(mfa.statusCode, 400, 'no other factor is on: the page says so');
      assert.match(mfa.body, /Two-step verification is required/);
    } finally {
      const token = await s.t.managementToken();
      assert.equal((await s.t.management('PATCH', '/api/v2/guardian/factors/duo/settings', { token, body: { skey: SKEY } })).statusCode, 200);
    }
  });

  it('without GATEHOUSE_OUTBOUND_ALLOW the loopback stand-in is never called: 502, no login', async () => {
    const guarded = await setUp({ GATEHOUSE_DUO_URL: standIn.url, GATEHOUSE_DUO_CA_FILE: caFile });
    try {
      await guarded.newUser('duo2@example.com');
      const { browser, mfa } = await loginToDuo(guarded, 'duo2@example.com');
      const back = await throughDuo(mfa.headers.location as string);
      const issued = standIn.tokensIssued;
      const refused = await browser.get(pathOf(back));
      assert.equal(refused.statusCode, 502, refused.body);
      assert.equal(standIn.tokensIssued, issued, 'the guard refused the address before any request');
    } finally {
      await guarded.t.close();
    }
  });
});
