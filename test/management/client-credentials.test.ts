/**
 * /api/v2/clients/{client_id}/credentials and the credential references of a
 * client (`client_authentication_methods`, `signed_request_object`): shapes,
 * derived kid/thumbprint/subject, the scopes, and every refusal; a client
 * created with an inline key authenticates with private_key_jwt.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, X509Certificate, createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { selfSignedCertificate } from '../helpers/certificates.js';
import { insertClient } from '../helpers/fixtures.js';

const ISSUER = `https://${DOMAIN}/`;
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

interface Credential {
  id: string;
  name: string;
  kid: string;
  alg?: string;
  credential_type: string;
  subject_dn?: string;
  thumbprint_sha256?: string;
  created_at: string;
  updated_at: string;
  expires_at?: string;
}

function rsaPem(bits = 2048) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), publicKey, privateKey };
}

describe('client credentials', () => {
  let t: TestApp;
  let clientId: string;
  const url = (suffix = '') => `/api/v2/clients/${clientId}/credentials${suffix}`;

  before(async () => {
    t = await createTestApp();
    clientId = (await insertClient(t)).client_id;
  });
  after(() => t.close());

  it('creates, lists, reads, updates and deletes a public key; kid is the key thumbprint unless given', async () => {
    const key = rsaPem();
    const created = await t.management('POST', url(), { body: { credential_type: 'public_key', name: 'key 1', pem: key.pem, expires_at: '2099-01-01T00:00:00Z' } });
    assert.equal(created.statusCode, 201, created.body);
    const credential = created.json() as Credential;
    assert.match(credential.id, /^cred_/);
    assert.equal(credential.alg, 'RS256');
    assert.equal(credential.kid, await calculateJwkThumbprint(key.publicKey.export({ format: 'jwk' }) as JWK, 'sha256'));
    assert.equal(credential.expires_at, '2099-01-01T00:00:00.000Z');
    assert.equal(credential.name, 'key 1');
    assert.ok(!('pem' in credential), 'the PEM is not echoed');

    const withKid = await t.management('POST', url(), { body: { credential_type: 'public_key', pem: rsaPem().pem, alg: 'PS256', kid: 'my-key-id-0001' } });
    assert.equal(withKid.statusCode, 201, withKid.body);
    assert.equal((withKid.json() as Credential).kid, 'my-key-id-0001');
    assert.equal((withKid.json() as Credential).alg, 'PS256');

    const list = (await t.management('GET', url())).json() as Credential[];
    assert.deepEqual(list.map((c) => c.id).sort(), [credential.id, (withKid.json() as Credential).id].sort());
    assert.deepEqual((await t.management('GET', url(`/${credential.id}`))).json(), credential);

    const patched = await t.management('PATCH', url(`/${credential.id}`), { body: { expires_at: null } });
    assert.equal(patched.statusCode, 201, patched.body);
    assert.ok(!('expires_at' in (patched.json() as Credential)));

    assert.equal((await t.management('DELETE', url(`/${credential.id}`))).statusCode, 204);
    assert.equal((await t.management('GET', url(`/${credential.id}`))).statusCode, 404);
    assert.equal((await t.management('DELETE', url(`/${credential.id}`))).statusCode, 404);
  });

  it('certificates: x509_cert keeps the thumbprint and subject; cert_subject_dn takes a DN or a certificate; expiry from the certificate', async () => {
    const cert = await selfSignedCertificate('CN=client.example, O=Acme, C=US');
    const x509 = new X509Certificate(cert.pem);
    const self = await t.management('POST', url(), { body: { credential_type: 'x509_cert', name: 'self-signed', pem: cert.pem } });
    assert.equal(self.statusCode, 201, self.body);
    const body = self.json() as Credential;
    assert.equal(body.thumbprint_sha256, createHash('sha256').update(x509.raw).digest('base64url'));
    assert.equal(body.subject_dn, 'C=US, CN=client.example, O=Acme');
    assert.equal(body.expires_at, new Date(x509.validTo).toISOString());

    const dn = await t.management('POST', url(), { body: { credential_type: 'cert_subject_dn', subject_dn: 'CN=client.example,O=Acme,C=US' } });
    assert.equal(dn.statusCode, 201, dn.body);
    assert.equal((dn.json() as Credential).subject_dn, 'C=US, CN=client.example, O=Acme');
    const dnFromPem = await t.management('POST', url(), { body: { credential_type: 'cert_subject_dn', pem: cert.pem } });
    assert.equal(dnFromPem.statusCode, 409, 'the same subject derives the same kid');

    const fromCert = await t.management('POST', url(), { body: { credential_type: 'public_key', pem: cert.pem, parse_expiry_from_cert: true } });
    assert.equal(fromCert.statusCode, 201, fromCert.body);
    assert.equal((fromCert.json() as Credential).expires_at, new Date(x509.validTo).toISOString());
  });

  it('refuses bad input with 400 invalid_body and changes nothing', async () => {
    const before = ((await t.management('GET', url())).json() as Credential[]).length;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ credential_type: 'public_key', pem: 'not a pem' }, /not a valid public key/],
      [{ credential_type: 'public_key', pem: ec }, /Only RSA/],
      [{ credential_type: 'public_key', pem: rsaPem(1024).pem }, /at least 2048 bits/],
      [{ credential_type: 'public_key' }, /pem is required/],
      [{ credential_type: 'public_key', pem: rsaPem().pem, subject_dn: 'CN=x' }, /subject_dn does not apply/],
      [{ credential_type: 'public_key', pem: rsaPem().pem, parse_expiry_from_cert: true }, /needs a certificate/],
      [{ credential_type: 'public_key', pem: rsaPem().pem, alg: 'HS256' }, /alg/],
      [{ credential_type: 'public_key', pem: rsaPem().pem, kid: 'short' }, /kid/],
      [{ credential_type: 'x509_cert', pem: rsaPem().pem }, /needs an X.509 certificate/],
      [{ credential_type: 'cert_subject_dn' }, /Exactly one of subject_dn and pem/],
      [{ credential_type: 'cert_subject_dn', subject_dn: 'no equals sign' }, /not a distinguished name/],
      [{ credential_type: 'symmetric', pem: 'x' }, /credential_type/],
      [{ credential_type: 'public_key', pem: rsaPem().pem, extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const res = await t.management('POST', url(), { body });
      assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
      assert.match((res.json() as { message: string }).message, message);
    }
    assert.equal(((await t.management('GET', url())).json() as Credential[]).length, before);
  });

  it('404 for an unknown client or credential; the client_credentials scopes are required', async () => {
    assert.equal((await t.management('GET', '/api/v2/clients/nope/credentials')).statusCode, 404);
    assert.equal((await t.management('POST', '/api/v2/clients/nope/credentials', { body: { credential_type: 'public_key', pem: rsaPem().pem } })).statusCode, 404);
    assert.equal((await t.management('GET', url('/cred_unknown'))).statusCode, 404);
    const readClients = await t.managementToken('read:clients');
    assert.equal((await t.management('GET', url(), { token: readClients })).statusCode, 403);
    const readOnly = await t.managementToken('read:client_credentials');
    assert.equal((await t.management('GET', url(), { token: readOnly })).statusCode, 200);
    assert.equal((await t.management('POST', url(), { token: readOnly, body: { credential_type: 'public_key', pem: rsaPem().pem } })).statusCode, 403);
  });

  it('a credential in use cannot be deleted; references must be this client’s, of the method’s type', async () => {
    const key = (await t.management('POST', url(), { body: { credential_type: 'public_key', pem: rsaPem().pem } })).json() as Credential;
    const dn = (await t.management('POST', url(), { body: { credential_type: 'cert_subject_dn', subject_dn: 'CN=other' } })).json() as Credential;
    const other = (await insertClient(t)).client_id;
    const foreign = (await t.management('POST', `/api/v2/clients/${other}/credentials`, { body: { credential_type: 'public_key', pem: rsaPem().pem } })).json() as Credential;

    const wrongType = await t.management('PATCH', `/api/v2/clients/${clientId}`, { body: { client_authentication_methods: { private_key_jwt: { credentials: [{ id: dn.id }] } } } });
    assert.equal(wrongType.statusCode, 400, wrongType.body);
    assert.match(wrongType.body, /takes public_key/);
    const notMine = await t.management('PATCH', `/api/v2/clients/${clientId}`, { body: { client_authentication_methods: { private_key_jwt: { credentials: [{ id: foreign.id }] } } } });
    assert.equal(notMine.statusCode, 400, notMine.body);
    const twice = await t.management('PATCH', `/api/v2/clients/${clientId}`, { body: { client_authentication_methods: { private_key_jwt: { credentials: [{ id: key.id }, { id: key.id }] } } } });
    assert.equal(twice.statusCode, 400, twice.body);

    const set = await t.management('PATCH', `/api/v2/clients/${clientId}`, {
      body: { token_endpoint_auth_method: null, client_authentication_methods: { private_key_jwt: { credentials: [{ id: key.id }] } } },
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual((set.json() as { client_authentication_methods: unknown }).client_authentication_methods, { private_key_jwt: { credentials: [{ id: key.id }] } });

    const inUse = await t.management('DELETE', url(`/${key.id}`));
    assert.equal(inUse.statusCode, 400, inUse.body);
    assert.match(inUse.body, /in use by client_authentication_methods.private_key_jwt/);
    assert.equal((await t.management('GET', url(`/${key.id}`))).statusCode, 200);
  });

  it('a client created with an inline key gets it as a credential and authenticates with private_key_jwt', async () => {
    const key = rsaPem();
    const created = await t.management('POST', '/api/v2/clients', {
      body: {
        name: 'pkjwt',
        app_type: 'non_interactive',
        grant_types: ['client_credentials'],
        client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', name: 'inline', pem: key.pem, alg: 'RS256' }] } },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const client = created.json() as { client_id: string; client_authentication_methods: { private_key_jwt: { credentials: { id: string }[] } } };
    const [ref] = client.client_authentication_methods.private_key_jwt.credentials;
    assert.deepEqual(Object.keys(ref!), ['id']);
    const stored = (await t.management('GET', `/api/v2/clients/${client.client_id}/credentials/${ref!.id}`)).json() as Credential;
    assert.equal(stored.name, 'inline');

    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: `${ISSUER}api/v2/`, scope: ['read:users'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    const now = Math.floor(t.ctx.now() / 1000);
    const assertion = await new SignJWT({ iss: client.client_id, sub: client.client_id, aud: ISSUER, jti: randomUUID(), iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: 'RS256', kid: stored.kid })
      .sign(key.privateKey);
    const token = await tokenRequest(t.app, { grant_type: 'client_credentials', audience: `${ISSUER}api/v2/`, client_assertion_type: JWT_BEARER, client_assertion: assertion }, { form: true });
    assert.equal(token.statusCode, 200, token.body);

    const bad = await t.management('POST', '/api/v2/clients', {
      body: { name: 'bad', client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', pem: 'garbage' }] } } },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    const names = ((await t.management('GET', '/api/v2/clients?fields=name&per_page=100')).json() as { name: string }[]).map((c) => c.name);
    assert.ok(!names.includes('bad'), 'a refused inline credential leaves no client behind');
  });
});
