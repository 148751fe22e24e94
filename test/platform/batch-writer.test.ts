/**
 * The batch writer: pushes are written in batches (one write per batch of
 * at most maxBatch, after the interval or once a batch is full), a failed
 * write keeps its items for the next flush, a batch the destination refuses
 * is split until its bad items are alone and only those are dropped, a full
 * buffer drops the oldest with a count and one report, close writes what is
 * left and reports what it could not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchWriter } from '../../src/platform/batch-writer.js';

describe('BatchWriter', () => {
  it('writes in batches of at most maxBatch, in order, and flush waits for them', async () => {
    const batches: number[][] = [];
    const writer = new BatchWriter<number>({ write: async (items) => void batches.push([...items]), maxBatch: 4, intervalMs: 60_000 });
    for (let i = 0; i < 10; i += 1) writer.push(i);
    await writer.flush();
    assert.deepEqual(batches.flat(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.ok(batches.every((b) => b.length <= 4));
    assert.equal(writer.pending, 0);
    await writer.close();
  });

  it('a full batch starts a write without waiting for the interval', async () => {
    let written = 0;
    let done!: () => void;
    const wrote = new Promise<void>((resolve) => (done = resolve));
    const writer = new BatchWriter<number>({ write: async (items) => { written += items.length; done(); }, maxBatch: 3, intervalMs: 60_000 });
    [1, 2, 3].forEach((i) => writer.push(i));
    await wrote;
    assert.equal(written, 3);
    await writer.close();
  });

  it('the interval writes a partial batch', async () => {
    let done!: (items: readonly number[]) => void;
    const wrote = new Promise<readonly number[]>((resolve) => (done = resolve));
    const writer = new BatchWriter<number>({ write: async (items) => done([...items]), maxBatch: 100, intervalMs: 5 });
    writer.push(7);
    assert.deepEqual(await wrote, [7]);
    await writer.close();
  });

  it('a failed write keeps its items, oldest first, for the next flush; nothing is lost', async () => {
    let failing = true;
    const written: number[] = [];
    const errors: unknown[] = [];
    const writer = new BatchWriter<number>({
      write: async (items) => {
        if (failing) throw new Error('database down');
        written.push(...items);
      },
      maxBatch: 2,
      intervalMs: 60_000,
      onError: (error) => errors.push(error),
    });
    [1, 2, 3].forEach((i) => writer.push(i));
    await writer.flush();
    assert.ok(errors.length >= 1);
    assert.equal(writer.pending, 3);
    writer.push(4);
    failing = false;
    await writer.flush();
    assert.deepEqual(written, [1, 2, 3, 4]);
    await writer.close();
  });

  it('beyond maxBuffered the oldest are dropped, counted and reported once per flush', async () => {
    let failing = true;
    const written: number[] = [];
    const drops: [string, number, number][] = [];
    const writer = new BatchWriter<number>({
      write: async (items) => {
        if (failing) throw new Error('database down');
        written.push(...items);
      },
      maxBatch: 100,
      maxBuffered: 5,
      intervalMs: 60_000,
      onDrop: ({ reason, count, total }) => void drops.push([reason, count, total]),
    });
    for (let i = 0; i < 8; i += 1) writer.push(i);
    assert.equal(writer.pending, 5);
    assert.equal(writer.dropped.buffer_full, 3);
    await writer.flush();
    assert.deepEqual(drops, [['buffer_full', 3, 3]]);
    failing = false;
    await writer.flush();
    assert.deepEqual(written, [3, 4, 5, 6, 7], 'the newest are kept');
    assert.deepEqual(drops, [['buffer_full', 3, 3]], 'reported once');
    await writer.close();
  });

  it('close writes what is left and ignores later pushes', async () => {
    const written: number[] = [];
    const writer = new BatchWriter<number>({ write: async (items) => void written.push(...items), intervalMs: 60_000 });
    writer.push(1);
    writer.push(2);
    await writer.close();
    writer.push(3);
    await writer.flush();
    assert.deepEqual(written, [1, 2]);
  });

  /** A destination that refuses any batch holding a negative number, as a NOT NULL column refuses a row, all or nothing. */
  function refusingNegatives(written: number[], writes: { count: number }) {
    return async (items: readonly number[]) => {
      writes.count += 1;
      if (items.some((i) => i < 0)) throw Object.assign(new Error('NOT NULL constraint failed: t.type'), { code: 'SQLITE_CONSTRAINT_NOTNULL' });
      written.push(...items);
    };
  }
  const refused = (error: unknown) => (error as { code?: string }).code === 'SQLITE_CONSTRAINT_NOTNULL';

  it('a batch with a poisoned item: the rest is written in order, the bad one dropped and reported once with its error; later batches flow', async () => {
    const written: number[] = [];
    const writes = { count: 0 };
    const drops: { reason: string; count: number; total: number; error?: unknown }[] = [];
    const writer = new BatchWriter<number>({ write: refusingNegatives(written, writes), refused, maxBatch: 16, intervalMs: 60_000, onDrop: (d) => void drops.push(d) });
    for (let i = 0; i < 16; i += 1) writer.push(i === 5 ? -1 : i);
    await writer.flush();
    assert.deepEqual(written, [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert.equal(writer.pending, 0);
    assert.equal(writer.dropped.refused, 1);
    assert.equal(writer.written, 15);
    assert.equal(drops.length, 1);
    assert.equal(drops[0]!.reason, 'refused');
    assert.equal(drops[0]!.count, 1);
    assert.equal((drops[0]!.error as { code: string }).code, 'SQLITE_CONSTRAINT_NOTNULL');
    // Bisection: about log2(16) extra writes per bad item, not one per item.
    assert.ok(writes.count <= 1 + 2 * 4, `${writes.count} writes`);

    for (let i = 100; i < 105; i += 1) writer.push(i);
    await writer.flush();
    assert.deepEqual(written.slice(-5), [100, 101, 102, 103, 104]);
    await writer.close();
  });

  it('several poisoned items over several batches, and a batch of only poisoned items: every good item written, every bad one dropped', async () => {
    const written: number[] = [];
    const writer = new BatchWriter<number>({ write: refusingNegatives(written, { count: 0 }), refused, maxBatch: 4, intervalMs: 60_000 });
    const items = [-1, -2, -3, -4, 1, -5, 2, 3, 4, 5, -6, 6];
    items.forEach((i) => writer.push(i));
    await writer.flush();
    assert.deepEqual(written, [1, 2, 3, 4, 5, 6]);
    assert.equal(writer.dropped.refused, 6);
    assert.equal(writer.pending, 0);
    await writer.close();
  });

  it('a failure the destination does not call a refusal (database down) keeps every item, poisoned or not, until it comes back', async () => {
    let down = true;
    const written: number[] = [];
    const errors: unknown[] = [];
    const writer = new BatchWriter<number>({
      write: async (items) => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        if (items.some((i) => i < 0)) throw Object.assign(new Error('null value'), { code: '23502' });
        written.push(...items);
      },
      refused: (error) => (error as { code?: string }).code === '23502',
      maxBatch: 8,
      intervalMs: 60_000,
      onError: (error) => errors.push(error),
    });
    [1, -1, 2, 3, 4, 5].forEach((i) => writer.push(i));
    await writer.flush();
    await writer.flush();
    assert.equal(writer.pending, 6);
    assert.equal(writer.dropped.refused, 0);
    assert.equal(errors.length, 2, 'one failed write per flush: no splitting while the database is down');
    // While backing off, a full batch does not start a write of its own: the retry's timer does.
    for (let i = 10; i < 18; i += 1) writer.push(i);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(errors.length, 2);
    down = false;
    await writer.flush();
    assert.deepEqual(written, [1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16, 17]);
    assert.equal(writer.dropped.refused, 1);
    await writer.close();
  });

  it('close flushes the buffer; what it cannot write is counted and reported as lost at shutdown', async () => {
    const written: number[] = [];
    const writer = new BatchWriter<number>({ write: async (items) => void written.push(...items), intervalMs: 60_000, maxBatch: 1000 });
    for (let i = 0; i < 7; i += 1) writer.push(i);
    assert.equal(writer.pending, 7);
    await writer.close();
    assert.deepEqual(written, [0, 1, 2, 3, 4, 5, 6]);

    const drops: [string, number][] = [];
    const down = new BatchWriter<number>({
      write: async () => {
        throw new Error('database down');
      },
      intervalMs: 60_000,
      onDrop: ({ reason, count }) => void drops.push([reason, count]),
    });
    [1, 2, 3].forEach((i) => down.push(i));
    await down.close();
    assert.equal(down.pending, 0);
    assert.equal(down.dropped.shutdown, 3);
    assert.deepEqual(drops, [['shutdown', 3]]);
  });
});
