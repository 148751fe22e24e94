/**
 * Imported password hashes: the service's custom_password_hash forms turned
 * into stored hashes and verified by the hashing pool, checked against
 * published test vectors (RFC 6070 and its SHA-256 counterpart, FIPS 180 "abc")
 * and against hashes made by independent implementations (argon2, bcryptjs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { verifyPassword } from '../../../src/platform/passwords/hashing.js';
import { ImportedHashError, storedHashOf, type CustomPasswordHash } from '../../../src/platform/passwords/imported-hashes.js';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64').replace(/=+$/, '');

async function accepts(custom: CustomPasswordHash, password: string, wrong = `${password}x`): Promise<string> {
  const stored = storedHashOf(custom);
  assert.deepEqual(await verifyPassword(stored, password), { ok: true, needsRehash: true }, stored);
  assert.deepEqual(await verifyPassword(stored, wrong), { ok: false, needsRehash: false }, stored);
  return stored;
}

describe('imported password hashes', () => {
  it('bcrypt and argon2 (id, i, d) as given', async () => {
    await accepts({ algorithm: 'bcrypt', hash: { value: bcrypt.hashSync('pw-b', 4) } }, 'pw-b');
    await accepts({ algorithm: 'bcrypt', hash: { value: bcrypt.hashSync('pw-b', 4).replace('$2b$', '$2y$'), encoding: 'utf8' } }, 'pw-b');
    for (const type of [argon2.argon2id, argon2.argon2i, argon2.argon2d] as const) {
      const value = await argon2.hash('pw-a', { type, memoryCost: 4096, timeCost: 1 });
      await accepts({ algorithm: 'argon2', hash: { value } }, 'pw-a');
    }
  });

  it('pbkdf2 PHC strings with sha1, sha256 and sha512 (RFC 6070 vectors, passlib adapted base64)', async () => {
    const salt = Buffer.from('salt').toString('base64').replace(/=+$/, '');
    await accepts({ algorithm: 'pbkdf2', hash: { value: `$pbkdf2-sha1$i=4096,l=20$${salt}$${b64('4b007901b765489abead49d926f721d065a429c1')}` } }, 'password');
    const sha256 = `$pbkdf2-sha256$i=4096,l=32$${salt}$${b64('c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a')}`;
    assert.equal(await accepts({ algorithm: 'pbkdf2', hash: { value: sha256, encoding: 'utf8' } }, 'password'), sha256);
    const adapted = sha256.replace(/\+/g, '.');
    await accepts({ algorithm: 'pbkdf2', hash: { value: adapted } }, 'password');
  });

  it('salted md5, sha1, sha256 and sha512 digests, salt before or after, hex or base64', async () => {
    const abc = {
      md5: '900150983cd24fb0d6963f7d28e17f72',
      sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      sha512: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    };
    for (const [algorithm, hex] of Object.entries(abc)) {
      await accepts({ algorithm, hash: { value: hex, encoding: 'hex' }, salt: { value: 'a', position: 'prefix' } }, 'bc');
      await accepts({ algorithm, hash: { value: Buffer.from(hex, 'hex').toString('base64'), encoding: 'base64' }, salt: { value: 'c', position: 'suffix' } }, 'ab');
      await accepts({ algorithm, hash: { value: hex, encoding: 'hex' }, salt: { value: Buffer.from('ab').toString('hex'), encoding: 'hex', position: 'prefix' } }, 'c');
      await accepts({ algorithm, hash: { value: hex, encoding: 'hex' } }, 'abc');
    }
  });

  it('refuses what it cannot check, with a reason, and never verifies a malformed stored hash', async () => {
    const refused: CustomPasswordHash[] = [
      {},
      { algorithm: 'scrypt', hash: { value: 'x' } },
      { algorithm: 'hmac', hash: { value: 'aa', encoding: 'hex' } },
      { algorithm: 'bcrypt', hash: { value: 'not-bcrypt' } },
      { algorithm: 'bcrypt', hash: { value: bcrypt.hashSync('x', 4), encoding: 'base64' } },
      { algorithm: 'argon2', hash: { value: '$argon2x$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA' } },
      { algorithm: 'pbkdf2', hash: { value: '$pbkdf2-md5$i=1,l=16$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' } },
      { algorithm: 'pbkdf2', hash: { value: `$pbkdf2-sha256$i=99999999,l=32$c2FsdA$${b64('c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a')}` } },
      { algorithm: 'pbkdf2', hash: { value: '$pbkdf2-sha256$i=1000,l=32$c2FsdA$aGFzaA' } },
      { algorithm: 'sha256', hash: { value: 'abcd', encoding: 'hex' } },
      { algorithm: 'sha256', hash: { value: 'zz', encoding: 'hex' } },
      { algorithm: 'sha256', hash: { value: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', encoding: 'utf8' } },
      { algorithm: 'sha1', hash: { value: 'a9993e364706816aba3e25717850c26c9cd0d89d', encoding: 'hex' }, salt: { value: 'a', position: 'middle' } },
      { algorithm: 'md5', hash: { value: '900150983cd24fb0d6963f7d28e17f72', encoding: 'hex' }, password: { encoding: 'ebcdic' } },
      { algorithm: 'md5', hash: { value: '900150983cd24fb0d6963f7d28e17f72', encoding: 'hex' }, salt: { value: 'x'.repeat(2000) } },
    ];
    for (const custom of refused) assert.throws(() => storedHashOf(custom), ImportedHashError, JSON.stringify(custom).slice(0, 120));
    for (const stored of ['$gh-digest$a=sha256,s=prefix,p=utf8$$AAAA', '$pbkdf2-sha256$i=0,l=1$$AA', `$2b$04$${'a'.repeat(600)}`]) {
      assert.deepEqual(await verifyPassword(stored, 'x'), { ok: false, needsRehash: false });
    }
  });
});
