import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox } from '../../../src/platform/crypto/secret-box.js';

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
  });
});
