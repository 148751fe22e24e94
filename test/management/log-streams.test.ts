/**
 * Log streams: the Management API's /log-streams (type `http` only, the
 * sink's Authorization sealed and never returned, the refusals), and
 * delivery from the log through a local HTTPS receiver that refuses the
 * first attempts and then accepts: every event arrives once, in order, with
 * the Authorization header, in the configured format; two workers at once
 * never send one batch twice. Time moves with the context's clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { httpsPoster } from '../../src/platform/http/form-poster.js';
import { LOOPBACK_ALLOWED } from '../helpers/outbound.js';
import { HttpsReceiver as Receiver } from '../helpers/https-receiver.js';
import { LogStreamDelivery, SETTLE_MS } from '../../src/domain/log-streams/delivery.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../helpers/app.js';

describe('log streams', () => {
  let t: TestApp;
  let tls: { cert: string; key: string };
  let token: string;
  const api = (method: string, url: string, body?: unknown) => t.management(method, `/api/v2${url}`, { token, ...(body !== undefined && { body }) });

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
    const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
    tls = { cert: material.certPem, key: material.keyPem };
  });
  after(() => t.close());

  it('creates, reads, updates and deletes an http stream; the Authorization header is sealed and never returned', async () => {
    const created = await api('POST', '/log-streams', {
      name: 'SIEM',
      type: 'http',
      filters: [{ type: 'category', name: 'auth.login.fail' }],
      sink: { httpEndpoint: 'https://siem.example.com/in', httpContentFormat: 'JSONARRAY', httpAuthorization: 'Bearer very-secret-value' },
    });
    assert.equal(created.statusCode, 200, created.body);
    const stream = created.json() as Record<string, unknown> & { id: string };
    assert.match(stream.id, /^lst_/);
    assert.deepEqual(stream, {
      id: stream.id,
      name: 'SIEM',
      status: 'active',
      type: 'http',
      isPriority: false,
      filters: [{ type: 'category', name: 'auth.login.fail' }],
      sink: { httpEndpoint: 'https://siem.example.com/in', httpContentType: 'application/json', httpContentFormat: 'JSONARRAY' },
    });
    const row = await t.ctx.database.db.selectFrom('log_streams').selectAll().where('id', '=', stream.id).executeTakeFirstOrThrow();
    assert.ok(row.authorization_enc && !row.authorization_enc.includes('very-secret-value'), 'sealed at rest');
    assert.ok(!JSON.stringify(row).includes('very-secret-value'));

    const read = await api('GET', `/log-streams/${stream.id}`);
    assert.deepEqual(read.json(), stream);
    assert.ok(!read.body.includes('very-secret-value'));
    const listed = await api('GET', '/log-streams');
    assert.deepEqual(listed.json(), [stream]);

    const paused = await api('PATCH', `/log-streams/${stream.id}`, { status: 'paused', name: 'SIEM 2', sink: { httpAuthorization: 'Bearer another-secret' } });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal((paused.json() as { status: string }).status, 'paused');
    assert.equal((paused.json() as { name: string }).name, 'SIEM 2');
    assert.ok(!paused.body.includes('another-secret'));
    assert.deepEqual((paused.json() as { sink: unknown }).sink, stream.sink);

    assert.equal((await api('DELETE', `/log-streams/${stream.id}`)).statusCode, 204);
    const gone = await api('GET', `/log-streams/${stream.id}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), { statusCode: 404, error: 'Not Found', message: 'The log stream does not exist.', errorCode: 'inexistent_log_stream' });
    assert.equal((await api('DELETE', `/log-streams/${stream.id}`)).statusCode, 404);
    assert.equal((await api('PATCH', `/log-streams/${stream.id}`, { status: 'active' })).statusCode, 404);
  });

  it('refuses other types, bad sinks, unknown filters and a stream past the limit, with 4xx and nothing stored', async () => {
    const refused = async (body: unknown, status = 400) => {
      const res = await api('POST', '/log-streams', body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      const json = res.json() as { statusCode: number; error: string; message: string };
      assert.equal(json.statusCode, status);
      return json;
    };
    const datadog = await refused({ type: 'datadog', sink: { datadogApiKey: 'k', datadogRegion: 'us' } });
    assert.match(datadog.message, /"datadog".*not available in Gatehouse/);
    await refused({ type: 'smoke-signals', sink: {} });
    await refused({ type: 'http', sink: {} });
    await refused({ type: 'http', sink: { httpEndpoint: 'http://plain.example.com/in' } });
    await refused({ type: 'http', sink: { httpEndpoint: 'https://x.example.com/in', httpContentFormat: 'XML' } });
    await refused({ type: 'http', sink: { httpEndpoint: 'https://x.example.com/in', httpCustomHeaders: [{ header: 'a', value: 'b' }] } });
    await refused({ type: 'http', sink: { httpEndpoint: `https://x.example.com/${'a'.repeat(2100)}` } });
    await refused({ type: 'http', filters: [{ type: 'category', name: 'everything' }], sink: { httpEndpoint: 'https://x.example.com/in' } });
    await refused({ type: 'http', startFrom: 'yesterday', sink: { httpEndpoint: 'https://x.example.com/in' } });
    assert.deepEqual((await api('GET', '/log-streams')).json(), []);

    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await api('POST', '/log-streams', { type: 'http', sink: { httpEndpoint: `https://x${i}.example.com/in` } });
      assert.equal(res.statusCode, 200, res.body);
      ids.push((res.json() as { id: string }).id);
    }
    const eleventh = await refused({ type: 'http', sink: { httpEndpoint: 'https://x.example.com/in' } }, 409);
    assert.equal(eleventh.message, 'You have reached the maximum number of log streams for your account.');
    for (const id of ids) assert.equal((await api('DELETE', `/log-streams/${id}`)).statusCode, 204);

    const readOnly = await t.managementToken('read:log_streams');
    const forbidden = await t.management('POST', '/api/v2/log-streams', { token: readOnly, body: { type: 'http', sink: { httpEndpoint: 'https://x.example.com/in' } } });
    assert.equal(forbidden.statusCode, 403);
  });

  it('delivers every event once, in order, after refusals with backoff; filters; two workers never send one batch twice', async () => {
    const receiver = new Receiver(tls, 2, '/logs');
    await receiver.up();
    const filtered = new Receiver(tls, 0, '/logs');
    await filtered.up();
    try {
      const all = await api('POST', '/log-streams', { type: 'http', sink: { httpEndpoint: receiver.url, httpAuthorization: 'Bearer stream-secret' } });
      assert.equal(all.statusCode, 200, all.body);
      const failures = await api('POST', '/log-streams', {
        type: 'http',
        filters: [{ type: 'category', name: 'management.fail' }],
        sink: { httpEndpoint: filtered.url, httpContentFormat: 'JSONARRAY', httpContentType: 'application/x-ndjson' },
      });
      assert.equal(failures.statusCode, 200, failures.body);

      // 130 events: more than one batch of 100. Roles created (sapi) and refused (fapi).
      for (let i = 0; i < 120; i += 1) assert.equal((await api('POST', '/roles', { name: `role-${i}` })).statusCode, 200);
      for (let i = 0; i < 10; i += 1) assert.equal((await api('POST', '/roles', { name: '' })).statusCode, 400);
      await t.ctx.tenantLogs.flush();
      const expected = (await t.ctx.database.db.selectFrom('tenant_logs').select(['log_id', 'type']).where('tenant_id', '=', t.tenant.id).orderBy('log_id').execute()).filter(
        (r) => r.log_id > '',
      );

      const poster = httpsPoster({ ca: tls.cert, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED });
      const one = new LogStreamDelivery(t.ctx, poster);
      const two = new LogStreamDelivery(t.ctx, poster);
      // Nothing goes out until the events have settled.
      assert.deepEqual(await one.runOnce(), { delivered: 0, failed: 0 });
      assert.equal(receiver.refused + receiver.accepted.length, 0);

      const streamId = (all.json() as { id: string }).id;
      await withClockAdvanced(t, SETTLE_MS, async () => {
        const startedAt = t.ctx.now();
        const first = await one.runOnce();
        assert.equal(first.failed, 1, 'the first attempt is refused (503)');
        assert.equal(receiver.refused, 1);
        const held = await t.ctx.stores.logStreams.get(t.tenant.id, streamId);
        assert.equal(held?.attempts, 1);
        assert.equal(held?.last_error, 'HTTP 503');
        assert.ok(Date.parse(held!.next_attempt_at) >= startedAt + 1000, 'the next attempt a second later');
      });
      // The backoff holds the next attempt: a round before it sends nothing to the refusing endpoint.
      assert.equal((await one.runOnce()).failed, 0);
      assert.equal(receiver.refused, 1);
      await withClockAdvanced(t, SETTLE_MS + 1000, async () => assert.equal((await one.runOnce()).failed, 1, 'the retry after 1 s is refused too'));
      await withClockAdvanced(t, SETTLE_MS + 3000, async () => {
        // Both workers at once: each stream is leased by one of them.
        const rounds = await Promise.all([one.runOnce(), two.runOnce(), one.runOnce()]);
        assert.ok(rounds.every((r) => r.failed === 0));
        for (let i = 0; i < 3; i += 1) await two.runOnce();
      });

      const events = receiver.accepted.flatMap((r) => r.body.split('\n').map((line) => JSON.parse(line) as { log_id: string; data: { type: string; log_id: string } }));
      const allIds = expected.map((r) => r.log_id);
      // Events recorded before the stream existed are not sent; everything after is, once, in order.
      const firstSent = allIds.indexOf(events[0]!.log_id);
      assert.ok(firstSent >= 0);
      assert.deepEqual(events.map((e) => e.log_id), allIds.slice(firstSent));
      assert.ok(events.length >= 130);
      assert.equal(new Set(events.map((e) => e.log_id)).size, events.length, 'no event twice');
      assert.ok(events.every((e) => e.data.log_id === e.log_id && typeof e.data.type === 'string'));
      assert.ok(receiver.accepted.length >= 2, 'more than one batch');
      assert.ok(receiver.accepted.every((r) => r.headers.authorization === 'Bearer stream-secret' && r.headers['content-type'] === 'application/json'));

      const arrays = filtered.accepted.map((r) => JSON.parse(r.body) as { log_id: string; data: { type: string } }[]);
      assert.ok(filtered.accepted.every((r) => r.headers['content-type'] === 'application/x-ndjson' && r.headers.authorization === undefined));
      const sentTypes = arrays.flat().map((e) => e.data.type);
      assert.equal(sentTypes.length, 10, 'the ten refused operations');
      assert.ok(sentTypes.every((type) => type === 'fapi'));
      const stored = await t.ctx.stores.logStreams.get(t.tenant.id, (all.json() as { id: string }).id);
      assert.equal(stored?.cursor, events.at(-1)!.log_id);
      assert.equal(stored?.attempts, 0);
    } finally {
      await receiver.down();
      await filtered.down();
    }
  });

  it('a paused stream sends nothing and, resumed, sends what it missed', async () => {
    const receiver = new Receiver(tls, 0, '/logs');
    await receiver.up();
    try {
      const created = await api('POST', '/log-streams', { type: 'http', sink: { httpEndpoint: receiver.url, httpContentFormat: 'JSONOBJECT' } });
      const id = (created.json() as { id: string }).id;
      assert.equal((await api('PATCH', `/log-streams/${id}`, { status: 'paused' })).statusCode, 200);
      assert.equal((await api('POST', '/roles', { name: 'while-paused' })).statusCode, 200);
      await t.ctx.tenantLogs.flush();
      const delivery = new LogStreamDelivery(t.ctx, httpsPoster({ ca: tls.cert, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED }));
      await withClockAdvanced(t, SETTLE_MS, async () => {
        await delivery.runOnce();
        assert.equal(receiver.accepted.length, 0);
      });
      assert.equal((await api('PATCH', `/log-streams/${id}`, { status: 'active' })).statusCode, 200);
      await t.ctx.tenantLogs.flush();
      await withClockAdvanced(t, SETTLE_MS, async () => {
        await delivery.runOnce();
      });
      // JSONOBJECT: one event per request, each a JSON object.
      const bodies = receiver.accepted.map((r) => JSON.parse(r.body) as { data: { description?: string } });
      assert.ok(bodies.length >= 2);
      assert.ok(bodies.some((b) => b.data.description === 'POST /api/v2/roles'));
      assert.ok(bodies.some((b) => b.data.description === 'PATCH /api/v2/log-streams/:id'));
    } finally {
      await receiver.down();
    }
  });
});
