import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { compactVerify, decodeProtectedHeader, jwtVerify } from 'jose';
import { signJwt, type JwsAlgorithm } from '../../../src/platform/crypto/jws.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const secret = randomBytes(32);
const payload = { iss: 'https://tenant.test/', sub: 'abc@clients', aud: 'https://api.example.com/', iat: 1_700_000_000, exp: 4_000_000_000, scope: 'read:things' };

describe('signJwt (node:crypto, verified by jose)', () => {
  const cases: Array<[JwsAlgorithm, Parameters<typeof signJwt>[2], Parameters<typeof jwtVerify>[1]]> = [
    ['RS256', rsa.privateKey, rsa.publicKey],
    ['PS256', rsa.privateKey, rsa.publicKey],
    ['ES256', ec.privateKey, ec.publicKey],
    ['HS256', secret, secret],
  ];
  for (const [alg, key, verifyKey] of cases) {
    it(`${alg}: jose verifies it, with the header and payload as given`, async () => {
      const token = signJwt(payload, { alg, typ: 'JWT', kid: 'k1' }, key);
      assert.deepEqual(decodeProtectedHeader(token), { alg, typ: 'JWT', kid: 'k1' });
      const { payload: verified, protectedHeader } = await jwtVerify(token, verifyKey, { algorithms: [alg] });
      assert.deepEqual(verified, payload);
      assert.equal(protectedHeader.alg, alg);
    });

    it(`${alg}: a changed payload or header no longer verifies`, async () => {
      const token = signJwt(payload, { alg, typ: 'JWT', kid: 'k1' }, key);
      const [h, p, s] = token.split('.');
      const otherPayload = Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString('base64url');
      await assert.rejects(compactVerify(`${h}.${otherPayload}.${s}`, verifyKey));
      const otherHeader = Buffer.from(JSON.stringify({ alg, typ: 'JWT', kid: 'k2' })).toString('base64url');
      await assert.rejects(compactVerify(`${otherHeader}.${p}.${s}`, verifyKey));
    });
  }

  it('PS256 signatures are randomised (PSS salt) and ES256 ones are raw r||s of 64 bytes', () => {
    const a = signJwt(payload, { alg: 'PS256' }, rsa.privateKey);
    const b = signJwt(payload, { alg: 'PS256' }, rsa.privateKey);
    assert.notEqual(a.split('.')[2], b.split('.')[2]);
    const es = signJwt(payload, { alg: 'ES256' }, ec.privateKey);
    assert.equal(Buffer.from(es.split('.')[2]!, 'base64url').length, 64);
  });
});
