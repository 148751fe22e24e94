/**
 * openid-client v6 (discovery + client credentials grant) and jose (remote
 * JWKS + jwtVerify) against the built server over real HTTPS.
 *
 * Both libraries take a custom fetch; the one used here is node:https with
 * the server's certificate as the only trusted CA (`ca`), with full
 * certificate and host name verification. A last test shows that without it
 * the certificate is refused.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch as joseCustomFetch, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest } from './support/https.js';

const DAY = 86_400;

let server: ServerProcess;
let ca: Buffer;
let fetchWithCa: ReturnType<typeof caFetch>;
let issuer: URL;
let clientId: string;
let clientSecret: string;
let managementAudience: string;
const servers: ServerProcess[] = [];

before(async () => {
  server = await startServerProcess();
  servers.push(server);
  ca = fs.readFileSync(server.certFile);
  fetchWithCa = caFetch(ca);
  issuer = new URL(`${server.baseUrl}/`);
  const admin = server.admin();
  clientId = admin.client_id;
  clientSecret = admin.client_secret;
  managementAudience = `https://${server.domain}/api/v2/`;
});

after(async () => {
  await cleanUp(servers, servers.map((s) => s.dataDir));
});

function discover(auth?: client.ClientAuth): Promise<client.Configuration> {
  return client.discovery(issuer, clientId, clientSecret, auth, { [client.customFetch]: fetchWithCa });
}

/** Verifies an access token against the server's JWKS with jose, as a resource server would. */
async function verify(config: client.Configuration, token: string, audience: string) {
  const jwksUri = config.serverMetadata().jwks_uri;
  assert.ok(jwksUri, 'discovery must give a jwks_uri');
  const jwks = createRemoteJWKSet(new URL(jwksUri), { [joseCustomFetch]: fetchWithCa });
  return jwtVerify(token, jwks, { issuer: issuer.href, audience, algorithms: ['RS256'] });
}

function assertClientCredentialsClaims(payload: JWTPayload, audience: string, lifetime: number, scope: string | undefined): void {
  assert.equal(payload.iss, issuer.href);
  assert.equal(payload.sub, `${clientId}@clients`);
  assert.equal(payload.aud, audience);
  assert.equal(typeof payload.iat, 'number');
  assert.ok(Math.abs(payload.iat! - Date.now() / 1000) < 60, `iat ${payload.iat} is not now`);
  assert.equal(payload.exp! - payload.iat!, lifetime);
  assert.equal(payload.scope, scope);
  assert.equal(payload.gty, 'client-credentials');
  assert.equal(payload.azp, clientId);
}

describe('the server process', () => {
  test('its start-up line names the Node.js that runs it (the one npm scripts run, 22 or newer)', () => {
    const line = server.output().split('\n').find((l) => l.includes('Gatehouse is listening'));
    assert.ok(line, server.output());
    const logged = JSON.parse(line) as { node?: string };
    assert.equal(logged.node, process.version);
    assert.ok(Number(process.versions.node.split('.')[0]) >= 22, process.version);
  });
});

describe('discovery', () => {
  test('discovery() validates the issuer and reads the server metadata', async () => {
    const config = await discover();
    const metadata = config.serverMetadata();
    assert.equal(metadata.issuer, `https://${server.domain}/`);
    assert.equal(metadata.token_endpoint, `https://${server.domain}/oauth/token`);
    assert.equal(metadata.jwks_uri, `https://${server.domain}/.well-known/jwks.json`);
    assert.ok(metadata.grant_types_supported?.includes('client_credentials'));
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes('client_secret_post'));
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes('client_secret_basic'));
    assert.deepEqual(config.clientMetadata().client_id, clientId);
  });

  test('the JWKS serves RS256 signing keys with kid, each again for PS256 (FAPI ID tokens)', async () => {
    const config = await discover();
    const response = await fetchWithCa(config.serverMetadata().jwks_uri!);
    assert.equal(response.status, 200);
    const jwks = (await response.json()) as { keys: { kid?: string; kty: string; alg?: string; use?: string; n?: string; e?: string; d?: string }[] };
    assert.ok(jwks.keys.length >= 1);
    assert.deepEqual(
      jwks.keys.filter((k) => k.alg === 'PS256').map((k) => k.kid),
      jwks.keys.filter((k) => k.alg === 'RS256').map((k) => `${k.kid}-ps256`),
    );
    for (const key of jwks.keys) {
      assert.equal(key.kty, 'RSA');
      assert.ok(key.alg === 'RS256' || key.alg === 'PS256');
      assert.equal(key.use, 'sig');
      assert.ok(key.kid && key.n && key.e);
      assert.equal(key.d, undefined, 'no private key material in the JWKS');
    }
  });
});

describe('client credentials grant', () => {
  test('client_secret_post (default): a Management API token that verifies against the JWKS', async () => {
    const config = await discover();
    const tokens = await client.clientCredentialsGrant(config, { audience: managementAudience });
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, DAY);
    assert.equal(typeof tokens.access_token, 'string');
    assert.ok(tokens.scope?.split(' ').includes('read:resource_servers'), tokens.scope);

    const { payload, protectedHeader } = await verify(config, tokens.access_token, managementAudience);
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(protectedHeader.typ, 'JWT');
    assert.equal(typeof protectedHeader.kid, 'string');
    const jwks = (await (await fetchWithCa(config.serverMetadata().jwks_uri!)).json()) as { keys: { kid: string }[] };
    assert.ok(
      jwks.keys.some((k) => k.kid === protectedHeader.kid),
      'the token kid is in the JWKS',
    );
    assertClientCredentialsClaims(payload, managementAudience, DAY, tokens.scope);
    assert.ok(String(payload.scope).split(' ').includes('create:client_grants'));
  });

  test('client_secret_basic with a requested subset of scopes', async () => {
    const config = await discover(client.ClientSecretBasic(clientSecret));
    const tokens = await client.clientCredentialsGrant(config, {
      audience: managementAudience,
      scope: 'read:resource_servers read:client_grants',
    });
    // Scope order is not significant (RFC 6749 §3.3); the server keeps the grant's order.
    assert.deepEqual(tokens.scope?.split(' ').sort(), ['read:client_grants', 'read:resource_servers']);
    const { payload } = await verify(config, tokens.access_token, managementAudience);
    assertClientCredentialsClaims(payload, managementAudience, DAY, tokens.scope);
  });

  test('a custom API: its token_lifetime and the grant scopes shape the token', async () => {
    const config = await discover();
    const management = await client.clientCredentialsGrant(config, { audience: managementAudience });
    const identifier = `https://oidc-api-${randomBytes(4).toString('hex')}.example.com`;
    const call = (method: string, path: string, body: unknown) =>
      httpsRequest(`${server.baseUrl}/api/v2${path}`, {
        ca,
        method,
        headers: { authorization: `Bearer ${management.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const api = await call('POST', '/resource-servers', {
      identifier,
      name: 'openid-client API',
      token_lifetime: 600,
      scopes: [{ value: 'read:things' }, { value: 'write:things' }],
    });
    assert.equal(api.status, 201, api.text);
    const grant = await call('POST', '/client-grants', { client_id: clientId, audience: identifier, scope: ['read:things'] });
    assert.equal(grant.status, 201, grant.text);

    const tokens = await client.clientCredentialsGrant(config, { audience: identifier });
    assert.equal(tokens.expires_in, 600);
    assert.equal(tokens.scope, 'read:things');
    const { payload, protectedHeader } = await verify(config, tokens.access_token, identifier);
    assert.equal(protectedHeader.typ, 'JWT');
    assertClientCredentialsClaims(payload, identifier, 600, 'read:things');

    // A scope outside the grant is not granted.
    const narrowed = await client.clientCredentialsGrant(config, { audience: identifier, scope: 'write:things' });
    assert.equal(narrowed.scope, undefined);
    const narrowedClaims = (await verify(config, narrowed.access_token, identifier)).payload;
    assert.equal(narrowedClaims.scope, undefined);
  });

  test('a wrong client secret is a ResponseBodyError 401 access_denied', async () => {
    const config = await client.discovery(issuer, clientId, `${clientSecret}x`, undefined, { [client.customFetch]: fetchWithCa });
    await assert.rejects(client.clientCredentialsGrant(config, { audience: managementAudience }), (error: unknown) => {
      assert.ok(error instanceof client.ResponseBodyError, String(error));
      assert.equal(error.status, 401);
      assert.equal(error.error, 'access_denied');
      assert.equal(error.error_description, 'Unauthorized');
      return true;
    });
  });

  test('an audience without a resource server is a ResponseBodyError 403 access_denied', async () => {
    const config = await discover();
    const audience = 'https://no-such-api.example.com/';
    await assert.rejects(client.clientCredentialsGrant(config, { audience }), (error: unknown) => {
      assert.ok(error instanceof client.ResponseBodyError, String(error));
      assert.equal(error.status, 403);
      assert.equal(error.error, 'access_denied');
      assert.equal(error.error_description, `Service not enabled within domain: ${audience}`);
      return true;
    });
  });

  test('jose rejects the token for another audience and a tampered token', async () => {
    const config = await discover();
    const tokens = await client.clientCredentialsGrant(config, { audience: managementAudience });
    await assert.rejects(verify(config, tokens.access_token, 'https://other.example.com/'), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    const [header, payload, signature] = tokens.access_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), scope: 'everything' })).toString(
      'base64url',
    );
    assert.equal(decodeProtectedHeader(`${header}.${forged}.${signature}`).kid, decodeProtectedHeader(tokens.access_token).kid);
    await assert.rejects(verify(config, `${header}.${forged}.${signature}`, managementAudience), {
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
  });
});

describe('TLS', () => {
  test('without the server certificate as CA, discovery fails certificate verification', async () => {
    assert.equal(process.env.NODE_TLS_REJECT_UNAUTHORIZED, undefined, 'tests must not disable TLS verification');
    await assert.rejects(client.discovery(issuer, clientId, clientSecret), (error: unknown) => {
      const chain: string[] = [];
      for (let e: unknown = error; e instanceof Error; e = e.cause) chain.push(`${e.message} ${(e as { code?: string }).code ?? ''}`);
      assert.match(chain.join(' | '), /self[- ]signed|SELF_SIGNED|unable to verify/i);
      return true;
    });
  });

  test('the certificate is checked against the host name, too', async () => {
    // Same server and trusted CA, but a name the certificate does not carry.
    const error = await new Promise<Error & { code?: string }>((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca, servername: 'gatehouse.invalid' }, () => {
        socket.destroy();
        resolve(Object.assign(new Error('connected although the name does not match'), { code: 'CONNECTED' }));
      });
      socket.once('error', resolve);
    });
    assert.equal(error.code, 'ERR_TLS_CERT_ALTNAME_INVALID', error.message);
  });
});
