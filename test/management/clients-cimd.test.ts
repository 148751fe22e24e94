/**
 * Client ID Metadata Documents: POST /api/v2/clients/cimd/preview and
 * /register through the `auth0` SDK (clients.previewCimdMetadata,
 * clients.registerCimdClient), with the metadata served by a local HTTPS
 * server (its certificate trusted in this process; the loopback interface
 * allowed with GATEHOUSE_OUTBOUND_ALLOW). Preview creates nothing; register
 * creates (201) then updates (200) the one client keyed by the URL, without
 * a secret; a private_key_jwt client's credentials follow its JWKS (at
 * jwks_uri) and authenticate at /oauth/token. Refusals: not https, a path
 * with dot segments, a loopback address without the allow setting, an
 * oversize document, a server that does not answer in time, a mismatched client_id, a shared-secret method, the
 * scopes; none of them creates a client.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { ManagementError } from 'auth0';
import { SignJWT, type JWK } from 'jose';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';

const ISSUER = `https://${DOMAIN}/`;

/** An HTTPS server answering each path with what `documents` holds for it (a function of its own URL). */
class MetadataServer {
  readonly documents = new Map<string, (url: string) => string>();
  readonly requests: string[] = [];
  base = '';
  #server: https.Server | undefined;

  async up(material: { cert: string; key: string }): Promise<void> {
    this.#server = https.createServer(material, (req, res) => {
      this.requests.push(req.url ?? '');
      // A server that never answers.
      if (req.url === '/agents/slow.json') return;
      const body = this.documents.get(req.url ?? '');
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body(`${this.base}${req.url}`));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.base = `https://localhost:${(this.#server.address() as AddressInfo).port}`;
  }

  serve(path: string, document: (url: string) => Record<string, unknown>): string {
    this.documents.set(path, (url) => JSON.stringify(document(url)));
    return `${this.base}${path}`;
  }

  async down(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwkOf = (key: KeyObject, kid: string): JWK => ({ ...(key.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' });

describe('clients: Client ID Metadata Documents', () => {
  let t: TestApp;
  let closed: TestApp;
  const server = new MetadataServer();

  before(async () => {
    const material = await createTlsCertificate(['localhost', '127.0.0.1']);
    // Gatehouse verifies the metadata server's certificate against the default roots: trust the test one in this process.
    tls.setDefaultCACertificates([...tls.getCACertificates('default'), material.certPem]);
    await server.up({ cert: material.certPem, key: material.keyPem });
    t = await createTestApp({ env: { GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
    closed = await createTestApp();
  });
  after(async () => {
    await t.close();
    await closed.close();
    await server.down();
  });

  const cimdClients = async (app: TestApp) =>
    ((await app.management('GET', '/api/v2/clients?per_page=100')).json() as { external_client_id?: string }[]).filter((c) => c.external_client_id !== undefined);

  it('previews a public client without creating it, then registers (201) and updates (200) the one client of the URL', async () => {
    const sdk = await inProcessSdk(t);
    let name = 'Agent Smith';
    const url = server.serve('/agents/smith.json', (u) => ({
      client_id: u,
      client_name: name,
      redirect_uris: ['https://app.example.com/callback', 'http://127.0.0.1:7777/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      logo_uri: 'https://app.example.com/logo.png',
      application_type: 'native',
    }));

    const preview = await sdk.clients.previewCimdMetadata({ external_client_id: url });
    assert.deepEqual(preview, {
      validation: { valid: true, violations: [], warnings: [] },
      mapped_fields: {
        external_client_id: url,
        name: 'Agent Smith',
        app_type: 'native',
        callbacks: ['https://app.example.com/callback', 'http://127.0.0.1:7777/cb'],
        logo_uri: 'https://app.example.com/logo.png',
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      },
    });
    assert.deepEqual(await cimdClients(t), [], 'preview creates nothing');

    const created = await sdk.clients.registerCimdClient({ external_client_id: url }).withRawResponse();
    assert.equal(created.rawResponse.status, 201);
    const clientId = created.data.client_id;
    assert.equal(created.data.mapped_fields.name, 'Agent Smith');
    const client = (await t.management('GET', `/api/v2/clients/${clientId}`)).json() as Record<string, unknown>;
    assert.equal(client.external_client_id, url);
    assert.equal(client.external_metadata_type, 'cimd');
    assert.equal(client.external_metadata_created_by, 'admin');
    assert.equal(client.is_first_party, false);
    assert.equal(client.token_endpoint_auth_method, 'none');
    assert.deepEqual(client.callbacks, ['https://app.example.com/callback', 'http://127.0.0.1:7777/cb']);
    assert.equal(client.client_secret, undefined, 'a CIMD client has no shared secret');
    assert.equal((await t.ctx.stores.clients.get(t.tenant.id, clientId))!.client_secret_enc, null);

    // The document changes; registering again updates the same client.
    name = 'Agent Smith v2';
    const updated = await sdk.clients.registerCimdClient({ external_client_id: url }).withRawResponse();
    assert.equal(updated.rawResponse.status, 200);
    assert.equal(updated.data.client_id, clientId);
    assert.equal(((await t.management('GET', `/api/v2/clients/${clientId}`)).json() as { name: string }).name, 'Agent Smith v2');
    assert.equal((await cimdClients(t)).length, 1);
    // Preview now names the client registered for the URL.
    assert.equal((await sdk.clients.previewCimdMetadata({ external_client_id: url })).client_id, clientId);
    // Form bodies are taken too, as the document says.
    const form = await t.management('POST', '/api/v2/clients/cimd/register', {
      body: new URLSearchParams({ external_client_id: url }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.statusCode, 200, form.body);
  });

  it('a private_key_jwt client: credentials from jwks_uri, rotated with the JWKS, usable at /oauth/token', async () => {
    const first = rsa();
    const second = rsa();
    let keys: JWK[] = [jwkOf(first.publicKey, 'cimd-key-0001')];
    server.documents.set('/keys/jwks.json', () => JSON.stringify({ keys }));
    const url = server.serve('/agents/worker', (u) => ({
      client_id: u,
      client_name: 'Worker',
      redirect_uris: ['https://worker.example.com/cb'],
      grant_types: ['authorization_code', 'client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${server.base}/keys/jwks.json`,
    }));
    const sdk = await inProcessSdk(t);
    const registered = await sdk.clients.registerCimdClient({ external_client_id: url });
    assert.deepEqual(registered.mapped_fields.client_authentication_methods, {
      private_key_jwt: { credentials: [{ credential_type: 'public_key', kid: 'cimd-key-0001', alg: 'RS256' }] },
    });
    assert.equal(registered.mapped_fields.app_type, 'regular_web');
    const clientId = registered.client_id;
    const credentials = async () => ((await t.management('GET', `/api/v2/clients/${clientId}/credentials`)).json() as { id: string; kid: string }[]).map((c) => c.kid).sort();
    assert.deepEqual(await credentials(), ['cimd-key-0001']);

    const assertion = async (key: KeyObject, kid: string) => {
      const now = Math.floor(t.ctx.now() / 1000);
      return new SignJWT({ iss: clientId, sub: clientId, aud: ISSUER, jti: randomUUID(), iat: now, exp: now + 60 }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
    };
    assert.equal((await t.management('POST', '/api/v2/client-grants', { body: { client_id: clientId, audience: `${ISSUER}api/v2/`, scope: ['read:users'] } })).statusCode, 201);
    const tokenWith = async (key: KeyObject, kid: string) =>
      (await tokenRequest(t.app, { grant_type: 'client_credentials', audience: `${ISSUER}api/v2/`, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: await assertion(key, kid) }, { form: true })).statusCode;
    assert.equal(await tokenWith(first.privateKey, 'cimd-key-0001'), 200);

    // The JWKS rotates: the new key is added, the old one removed.
    keys = [jwkOf(second.publicKey, 'cimd-key-0002')];
    assert.equal((await sdk.clients.registerCimdClient({ external_client_id: url })).client_id, clientId);
    assert.deepEqual(await credentials(), ['cimd-key-0002']);
    assert.equal(await tokenWith(second.privateKey, 'cimd-key-0002'), 200);
    assert.equal(await tokenWith(first.privateKey, 'cimd-key-0001'), 401);
  });

  it('refuses what the draft and the document refuse, creating nothing', async () => {
    const sdk = await inProcessSdk(t);
    const before = (await cimdClients(t)).length;
    // Not https, dot segments, a fragment: 400 before anything is fetched.
    for (const bad of ['http://localhost/agent.json', `${server.base}/a/../agent.json`, `${server.base}/agent.json#x`, 'not a url']) {
      for (const operation of ['preview', 'register']) {
        const res = await t.management('POST', `/api/v2/clients/cimd/${operation}`, { body: { external_client_id: bad } });
        assert.equal(res.statusCode, 400, `${operation} ${bad}: ${res.body}`);
        assert.equal(res.json().errorCode, 'invalid_body');
        assert.match(res.json().message, /external_client_id/);
      }
    }
    const tooLong = await t.management('POST', '/api/v2/clients/cimd/preview', { body: { external_client_id: `https://example.com/${'a'.repeat(120)}` } });
    assert.equal(tooLong.statusCode, 400);
    const extra = await t.management('POST', '/api/v2/clients/cimd/preview', { body: { external_client_id: `${server.base}/x`, name: 'x' } });
    assert.equal(extra.statusCode, 400);

    // client_id is not the URL.
    const mismatched = server.serve('/agents/liar.json', () => ({ client_id: 'https://elsewhere.example.com/agent.json', client_name: 'Liar', redirect_uris: ['https://liar.example.com/cb'] }));
    const preview = await sdk.clients.previewCimdMetadata({ external_client_id: mismatched });
    assert.equal(preview.validation?.valid, false);
    assert.ok(preview.validation!.violations.some((v) => v.includes(`client_id must equal the document's URL ${mismatched}`)), JSON.stringify(preview));
    await assert.rejects(sdk.clients.registerCimdClient({ external_client_id: mismatched }), (e: ManagementError) => {
      assert.equal(e.statusCode, 400);
      assert.match(JSON.stringify(e.body), /cannot be applied: client_id must equal/);
      return true;
    });

    // A shared secret, and no redirect URIs.
    const secretive = server.serve('/agents/secret.json', (u) => ({ client_id: u, client_secret: 'x', token_endpoint_auth_method: 'client_secret_post' }));
    const violations = (await sdk.clients.previewCimdMetadata({ external_client_id: secretive })).validation!.violations.join('\n');
    assert.match(violations, /client_secret must not be present/);
    assert.match(violations, /token_endpoint_auth_method "client_secret_post" is not allowed/);
    assert.match(violations, /redirect_uris is required/);

    // Larger than 5 KiB.
    const big = server.serve('/agents/big.json', (u) => ({ client_id: u, client_name: 'Big', redirect_uris: ['https://big.example.com/cb'], padding: 'x'.repeat(6000) }));
    const oversize = await sdk.clients.previewCimdMetadata({ external_client_id: big });
    assert.equal(oversize.validation, undefined);
    assert.match(oversize.errors!.join(), /larger than 5120 bytes/);
    await assert.rejects(sdk.clients.registerCimdClient({ external_client_id: big }), (e: ManagementError) => e.statusCode === 400 && /could not be retrieved/.test(JSON.stringify(e.body)));

    // A server that does not answer within the deadline (5 s).
    const slow = await sdk.clients.previewCimdMetadata({ external_client_id: `${server.base}/agents/slow.json` });
    assert.match(slow.errors!.join(), /no answer within 5000 ms/);

    // A document that does not exist.
    const missing = await sdk.clients.previewCimdMetadata({ external_client_id: `${server.base}/agents/none.json` });
    assert.match(missing.errors!.join(), /answered 404/);
    assert.equal((await cimdClients(t)).length, before);
  });

  it('refuses a loopback address unless GATEHOUSE_OUTBOUND_ALLOW lists it', async () => {
    const url = server.serve('/agents/local.json', (u) => ({ client_id: u, client_name: 'Local', redirect_uris: ['https://local.example.com/cb'] }));
    const served = server.requests.length;
    const preview = await closed.management('POST', '/api/v2/clients/cimd/preview', { body: { external_client_id: url } });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.match((preview.json() as { errors: string[] }).errors.join(), /not a public address.*GATEHOUSE_OUTBOUND_ALLOW/);
    const register = await closed.management('POST', '/api/v2/clients/cimd/register', { body: { external_client_id: url } });
    assert.equal(register.statusCode, 400);
    assert.match(register.json().message, /could not be retrieved/);
    assert.equal(server.requests.length, served, 'the loopback server was never reached');
    assert.deepEqual(await cimdClients(closed), []);
  });

  it('asks for the document\'s scopes: read:clients to preview, create:clients to create, update:clients to update', async () => {
    const url = server.serve('/agents/scoped.json', (u) => ({ client_id: u, client_name: 'Scoped', redirect_uris: ['https://scoped.example.com/cb'] }));
    const as = async (scope: string, operation: string) =>
      t.management('POST', `/api/v2/clients/cimd/${operation}`, { body: { external_client_id: url }, token: await t.managementToken(scope) });
    assert.equal((await as('create:clients', 'preview')).statusCode, 403);
    assert.equal((await as('read:clients', 'preview')).statusCode, 200);
    assert.equal((await as('read:clients', 'register')).statusCode, 403);
    const refusedCreate = await as('update:clients', 'register');
    assert.equal(refusedCreate.statusCode, 403);
    assert.match(refusedCreate.json().message, /create:clients/);
    assert.equal((await as('create:clients', 'register')).statusCode, 201);
    const refusedUpdate = await as('create:clients', 'register');
    assert.equal(refusedUpdate.statusCode, 403);
    assert.match(refusedUpdate.json().message, /update:clients/);
    assert.equal((await as('update:clients', 'register')).statusCode, 200);
  });
});
