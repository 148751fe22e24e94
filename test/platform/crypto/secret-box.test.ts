import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox, UnknownKeyVersion } from '../../../src/platform/crypto/secret-box.js';

describe('SecretBox (AES-256-GCM at rest)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('s3cret-value', 'client_secret:t:c');
    assert.ok(!sealed.includes('s3cret'));
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.equal(box.openString(sealed, 'client_secret:t:c'), 's3cret-value');
    assert.notEqual(box.seal('s3cret-value', 'client_secret:t:c'), sealed, 'a fresh IV each time');
  });

  it('refuses another context, a tampered value and another key', () => {
    const sealed = box.seal('value', 'a');
    assert.throws(() => box.open(sealed, 'b'));
    const [v, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    assert.throws(() => box.open(`${v}.${iv}.${flipped.toString('base64url')}`, 'a'));
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'a'));
    assert.throws(() => box.open('v2.x.y', 'a'));
    assert.throws(() => box.open('v3.x.y.z', 'a'));
  });
});

describe('SecretBox key versions (v2 names the tenant encryption key)', () => {
  const root = randomBytes(32);
  const box = new SecretBox(root);
  const kidA = '11111111-1111-4111-8111-111111111111';
  const kidB = '22222222-2222-4222-8222-222222222222';
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  it('seals under the root key (v1) until the tenant has an active key, and v1 values stay readable after', () => {
    const legacy = box.seal('before', 'ctx', 'tenant-1');
    assert.match(legacy, /^v1\./);
    assert.equal(box.kidOf(legacy), box.rootKid);
    box.setTenantKeys('tenant-1', new Map([[kidA, keyA]]), kidA);
    const versioned = box.seal('after', 'ctx', 'tenant-1');
    assert.match(versioned, new RegExp(`^v2\\.${kidA}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    assert.equal(box.kidOf(versioned), kidA);
    assert.equal(box.openString(versioned, 'ctx'), 'after');
    assert.equal(box.openString(legacy, 'ctx'), 'before');
    // Without a tenant (values handed to browsers), the root key seals.
    assert.match(box.seal('x', 'ctx'), /^v1\./);
    // Another tenant has no key of its own yet.
    assert.match(box.seal('x', 'ctx', 'tenant-2'), /^v1\./);
    // A value sealed by the previous version of this module (same format, same key) opens.
    const fromBefore = new SecretBox(root).seal('written by the landed version', 'client_secret:t:c');
    assert.equal(box.openString(fromBefore, 'client_secret:t:c'), 'written by the landed version');
  });

  it('opens old and new keys while both are held; a retired key no longer opens; the tag binds the key', () => {
    const underA = box.seal('a', 'ctx', 'tenant-1');
    box.setTenantKeys('tenant-1', new Map([[kidA, keyA], [kidB, keyB]]), kidB);
    const underB = box.seal('b', 'ctx', 'tenant-1');
    assert.equal(box.kidOf(underB), kidB);
    assert.equal(box.openString(underA, 'ctx'), 'a');
    box.setTenantKeys('tenant-1', new Map([[kidB, keyB]]), kidB);
    assert.throws(() => box.open(underA, 'ctx'), UnknownKeyVersion);
    assert.equal(box.openString(underB, 'ctx'), 'b');
    // A value relabelled with another kid does not open.
    box.setTenantKeys('tenant-1', new Map([[kidA, keyA], [kidB, keyB]]), kidB);
    assert.throws(() => box.open(underB.replace(kidB, kidA), 'ctx'));
    assert.throws(() => box.setTenantKeys('tenant-1', new Map([[kidA, keyA]]), kidB), /not among/);
  });

  it('wraps key material under the root key, bound to its context', () => {
    const material = randomBytes(32);
    const wrapped = box.wrapUnderRoot(material, 'tenant-master-key:t:k');
    assert.ok(box.unwrapUnderRoot(wrapped, 'tenant-master-key:t:k').equals(material));
    assert.throws(() => box.unwrapUnderRoot(wrapped, 'tenant-master-key:t:other'));
    assert.throws(() => new SecretBox(randomBytes(32)).unwrapUnderRoot(wrapped, 'tenant-master-key:t:k'));
    assert.equal(new SecretBox(root).rootKid, box.rootKid, 'the root kid is derived from the key');
    assert.notEqual(new SecretBox(randomBytes(32)).rootKid, box.rootKid);
    assert.match(box.rootKid, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
