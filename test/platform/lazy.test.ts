/**
 * platform/lazy.ts: a package behind `lazyModule` is not loaded by importing
 * the module that declares it, only by the first call, and once. The XML
 * modules (SAML's stack, the largest of them) load through it.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createSigningCertificate, toPem } from '../../src/platform/crypto/certificates.js';

const requireHere = createRequire(import.meta.url);
const isLoaded = (id: string): boolean => requireHere.resolve(id) in requireHere.cache;

test('the XML packages are loaded on first use, not when their modules are imported', async () => {
  const packages = ['samlify', 'xml-crypto', '@authenio/xml-encryption'];
  for (const id of packages) assert.equal(isLoaded(id), false, `${id} not loaded before the test`);
  const [{ samlify }, { SignedXml }, { encryptElement }] = await Promise.all([
    import('../../src/platform/xml/samlify.js'),
    import('../../src/platform/xml/xml-crypto.js'),
    import('../../src/platform/xml/encryption.js'),
  ]);
  for (const id of packages) assert.equal(isLoaded(id), false, `${id} not loaded by importing its module`);

  // samlify last: it requires the other two itself.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = toPem(await createSigningCertificate(privateKey, publicKey, 'sp.example.com'), 'CERTIFICATE');
  assert.match(await encryptElement('<a/>', certificate), /EncryptedData/);
  assert.equal(isLoaded('@authenio/xml-encryption'), true);
  assert.equal(isLoaded('samlify'), false);

  assert.equal(typeof SignedXml(), 'function');
  assert.equal(isLoaded('xml-crypto'), true);
  assert.equal(isLoaded('samlify'), false);

  assert.equal(samlify(), samlify(), 'one instance');
  assert.equal(typeof samlify().IdentityProvider, 'function');
  assert.equal(isLoaded('samlify'), true);
});
