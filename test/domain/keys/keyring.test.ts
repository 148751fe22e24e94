/** The keyring reads a tenant's keys once per cache period, however many callers arrive together. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox } from '../../../src/platform/crypto/secret-box.js';
import { Keyring } from '../../../src/domain/keys/keyring.js';
import type { SigningKeyStore } from '../../../src/domain/keys/store.js';
import type { SigningKeyRow } from '../../../src/domain/rows.js';

class CountingStore implements SigningKeyStore {
  rows: SigningKeyRow[] = [];
  reads = 0;
  async insert(row: SigningKeyRow): Promise<void> {
    this.rows.push(row);
  }
  async listByTenant(tenantId: string): Promise<SigningKeyRow[]> {
    this.reads++;
    await new Promise((r) => setTimeout(r, 5));
    return this.rows.filter((r) => r.tenant_id === tenantId);
  }
  async get(tenantId: string, kid: string): Promise<SigningKeyRow | undefined> {
    return this.rows.find((r) => r.tenant_id === tenantId && r.kid === kid);
  }
  async rotate(): Promise<boolean> {
    throw new Error('rotation is tested on the real stores (test/storage/conformance.test.ts)');
  }
  async revoke(): Promise<boolean> {
    throw new Error('revocation is tested on the real stores (test/storage/conformance.test.ts)');
  }
}

describe('Keyring', () => {
  it('shares one reload among concurrent callers, before and after the cache expires', async () => {
    let now = 1_000_000;
    const store = new CountingStore();
    const keyring = new Keyring(store, new SecretBox(randomBytes(32)), () => now);
    await store.insert(await keyring.generate('ten_a', 'a.test'));

    const first = await Promise.all(Array.from({ length: 50 }, () => keyring.keys('ten_a')));
    assert.equal(store.reads, 1);
    assert.ok(first.every((k) => k === first[0]));

    now += 61_000;
    await Promise.all(Array.from({ length: 50 }, () => keyring.keys('ten_a')));
    assert.equal(store.reads, 2, 'one reload after expiry, not fifty');
  });

  it('rereads once for an unknown kid, then finds a key another process added', async () => {
    let now = 1_000_000;
    const store = new CountingStore();
    const keyring = new Keyring(store, new SecretBox(randomBytes(32)), () => now);
    await store.insert(await keyring.generate('ten_b', 'b.test'));
    await keyring.keys('ten_b');
    const added = await keyring.generate('ten_b', 'b.test');
    await store.insert({ ...added, status: 'next' });
    now += 6_000;
    assert.ok(await keyring.verificationKey('ten_b', added.kid));
    assert.equal(await keyring.verificationKey('ten_b', 'nope'), undefined);
  });
});
