/**
 * The batch writer: pushes are written in batches (one write per batch of
 * at most maxBatch, after the interval or once a batch is full), a failed
 * write keeps its items for the next flush, a full buffer drops the oldest
 * with a count and one report, close writes what is left.
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
    const drops: [number, number][] = [];
    const writer = new BatchWriter<number>({
      write: async (items) => {
        if (failing) throw new Error('database down');
        written.push(...items);
      },
      maxBatch: 100,
      maxBuffered: 5,
      intervalMs: 60_000,
      onDrop: (count, total) => drops.push([count, total]),
    });
    for (let i = 0; i < 8; i += 1) writer.push(i);
    assert.equal(writer.pending, 5);
    assert.equal(writer.dropped, 3);
    await writer.flush();
    assert.deepEqual(drops, [[3, 3]]);
    failing = false;
    await writer.flush();
    assert.deepEqual(written, [3, 4, 5, 6, 7], 'the newest are kept');
    assert.deepEqual(drops, [[3, 3]], 'reported once');
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
});
