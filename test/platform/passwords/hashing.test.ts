import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import {
  ARGON2_PARAMETERS,
  HashingBusy,
  HashingCancelled,
  closeHashing,
  configureHashing,
  defaultHashingSettings,
  hashPassword,
  verifyPassword,
} from '../../../src/platform/passwords/hashing.js';

describe('password hashing', () => {
  it('hashes with argon2id and the documented parameters, salted', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2_PARAMETERS;
    assert.match(a, new RegExp(`^\\$argon2id\\$v=19\\$m=${m},t=${t},p=${p}\\$`));
    assert.notEqual(a, b);
    assert.deepEqual(await verifyPassword(a, 'correct horse battery staple'), { ok: true, needsRehash: false });
    assert.deepEqual(await verifyPassword(a, 'wrong'), { ok: false, needsRehash: false });
  });

  it('verifies argon2id hashes made by the argon2 package (earlier Gatehouse versions, parameters in another order)', async () => {
    const earlier = await argon2.hash('pw', { type: argon2.argon2id, ...ARGON2_PARAMETERS });
    assert.match(earlier, /\$m=19456,p=1,t=2\$/);
    assert.deepEqual(await verifyPassword(earlier, 'pw'), { ok: true, needsRehash: false });
    assert.deepEqual(await verifyPassword(earlier, 'pW'), { ok: false, needsRehash: false });
    // And the other way round: what Gatehouse writes now, the argon2 package reads.
    assert.equal(await argon2.verify(await hashPassword('pw'), 'pw'), true);
  });

  it('reports argon2id hashes with outdated parameters as needing a rehash', async () => {
    const old = await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 8192, timeCost: 1, parallelism: 1 });
    assert.deepEqual(await verifyPassword(old, 'pw'), { ok: true, needsRehash: true });
    assert.deepEqual(await verifyPassword(old, 'nope'), { ok: false, needsRehash: false });
  });

  it('verifies imported bcrypt hashes ($2a$, $2b$, $2y$) and asks for a rehash', async () => {
    const b2b = await bcrypt.hash('imported-pw', 4);
    assert.match(b2b, /^\$2b\$04\$/);
    const b2a = b2b.replace(/^\$2b\$/, '$2a$');
    const b2y = b2b.replace(/^\$2b\$/, '$2y$');
    for (const hash of [b2b, b2a, b2y]) {
      assert.deepEqual(await verifyPassword(hash, 'imported-pw'), { ok: true, needsRehash: true }, hash);
      assert.deepEqual(await verifyPassword(hash, 'imported-pW'), { ok: false, needsRehash: false }, hash);
    }
  });

  it('treats malformed and unknown hashes as a failed verification, not a throw', async () => {
    const argonOk = await hashPassword('pw');
    for (const hash of [
      '',
      'plain-text',
      '$2b$04$tooShort',
      '$2b$99$' + 'a'.repeat(53),
      '$argon2id$v=19$m=19456,t=2,p=1$garbage',
      argonOk.slice(0, -10),
      '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo',
      '$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA',
    ]) {
      assert.deepEqual(await verifyPassword(hash, 'pw'), { ok: false, needsRehash: false }, hash);
    }
  });

  it('refuses at once, with HashingBusy, what would wait beyond the queue limit; nothing accepted is dropped', async () => {
    const hash = await hashPassword('pw');
    configureHashing({ threads: 1, queue: 2 });
    try {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => verifyPassword(hash, 'pw')));
      const refused = results.filter((r) => r.status === 'rejected');
      const done = results.filter((r) => r.status === 'fulfilled');
      assert.ok(refused.length >= 1, 'some were refused');
      assert.ok(refused.every((r) => (r as PromiseRejectedResult).reason instanceof HashingBusy));
      // One running and two queued at most: every accepted one completed, and correctly.
      assert.ok(done.length >= 3, `${done.length} completed`);
      assert.ok(done.every((r) => (r as PromiseFulfilledResult<{ ok: boolean }>).value.ok));
    } finally {
      configureHashing(defaultHashingSettings());
    }
  });

  it('skips a verification whose signal aborted before a thread began it (HashingCancelled, a HashingBusy); others are verified', async () => {
    const hash = await hashPassword('pw');
    configureHashing({ threads: 1, queue: 64 });
    try {
      const gone = new AbortController();
      gone.abort();
      await assert.rejects(verifyPassword(hash, 'pw', gone.signal), (e: unknown) => e instanceof HashingCancelled && e instanceof HashingBusy);
      // One verification occupies the only thread; six more queued behind it, whose client then leaves.
      const first = verifyPassword(hash, 'pw');
      const leaving = new AbortController();
      const abandoned = Array.from({ length: 6 }, () => verifyPassword(hash, 'pw', leaving.signal));
      const staying = new AbortController();
      const kept = [verifyPassword(hash, 'pw', staying.signal), verifyPassword(hash, 'nope', staying.signal)];
      leaving.abort();
      assert.deepEqual(await first, { ok: true, needsRehash: false });
      const outcomes = await Promise.allSettled(abandoned);
      assert.ok(
        outcomes.every((r) => r.status === 'rejected' && r.reason instanceof HashingCancelled),
        JSON.stringify(outcomes.map((r) => r.status)),
      );
      // Those whose client stayed were verified, rightly, after the skipped ones.
      assert.deepEqual(await Promise.all(kept), [
        { ok: true, needsRehash: false },
        { ok: false, needsRehash: false },
      ]);
    } finally {
      configureHashing(defaultHashingSettings());
    }
  });

  it('starts again after the pool was closed', async () => {
    await closeHashing();
    const hash = await hashPassword('again');
    assert.equal((await verifyPassword(hash, 'again')).ok, true);
  });
});
