/**
 * The tenant log recorder (src/domain/logs/tenant-logs.ts) over a database
 * that does not take writes: a full buffer drops the oldest and says so in
 * a warning and in `gatehouse_tenant_log_events_dropped_total`; an event
 * whose type is not one of LOG_TYPES' own (`constructor`) is refused before
 * it is buffered; close reports what it could not write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogEvent } from '../../src/domain/logs/events.js';
import { BufferedTenantLogs } from '../../src/domain/logs/tenant-logs.js';
import { Metrics } from '../../src/platform/metrics.js';

function capture() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, logger: { warn: at('warn'), error: at('error') } as never };
}

const sample = (text: string, reason: string) => Number(new RegExp(`gatehouse_tenant_log_events_dropped_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 'NaN');

describe('BufferedTenantLogs', () => {
  it('database down: a full buffer drops the oldest with a warning and the metric; close reports the rest as lost; an unknown type is refused', async () => {
    const metrics = new Metrics({}, { served: true });
    const { lines, logger } = capture();
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const logs = new BufferedTenantLogs(
      {
        insertMany: async () => {
          throw down;
        },
        refusal: () => undefined,
      },
      () => Date.now(),
      logger,
      { maxBuffered: 3, intervalMs: 60_000, onDropped: (reason, count) => metrics.tenantLogEventsDropped(reason, count) },
    );
    for (let i = 0; i < 5; i += 1) logs.record('t1', { type: 'sapi', description: `event ${i}` });
    logs.record('t1', { type: 'constructor' } as unknown as LogEvent);
    assert.equal(logs.pending, 3);
    await logs.flush();
    assert.deepEqual(logs.dropped, { buffer_full: 2, refused: 0, shutdown: 0, invalid_type: 1 });
    const full = lines.find((l) => l.fields.reason === 'buffer_full');
    assert.equal(full?.level, 'warn');
    assert.match(full.message, /buffer is full/);
    assert.equal(full.fields.dropped, 2);
    assert.ok(lines.some((l) => l.level === 'error' && /without a known type/.test(l.message) && l.fields.type === 'constructor'));
    assert.ok(lines.some((l) => l.level === 'warn' && /stay buffered/.test(l.message)));

    await logs.close();
    assert.equal(logs.dropped.shutdown, 3);
    assert.ok(lines.some((l) => l.level === 'error' && l.fields.reason === 'shutdown' && l.fields.dropped === 3));
    const text = await metrics.text();
    assert.equal(sample(text, 'buffer_full'), 2);
    assert.equal(sample(text, 'invalid_type'), 1);
    assert.equal(sample(text, 'shutdown'), 3);
    assert.ok(!lines.some((l) => JSON.stringify(l.fields).includes('event 1')), 'no event in a log line');
  });
});
