/**
 * Event streams: the Management API's /event-streams (webhook destinations,
 * the secret sealed and never returned, the refusals), the outbox written
 * with the change (users created, updated and deleted through the Management
 * API and signup; organizations and their members), and delivery as
 * CloudEvents to a local HTTPS receiver that refuses the first attempts:
 * retries with backoff, the failed deliveries listed, redelivery, test
 * events; on PostgreSQL two workers at once never send one event twice.
 * Time moves with the context's clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { httpsPoster } from '../../src/platform/http/form-poster.js';
import { EventStreamDelivery, FIRST_RETRY_MS } from '../../src/domain/event-streams/delivery.js';
import { LOOPBACK_ALLOWED, LOOPBACK_RANGES } from '../helpers/outbound.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { withReceiver, type HttpsReceiver } from '../helpers/https-receiver.js';

/** The CloudEvents a receiver accepted. */
const events = (receiver: HttpsReceiver) =>
  receiver.accepted.map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as Record<string, unknown> & { id: string; type: string; data: { object: Record<string, unknown> } } }));

const REALM = 'Username-Password-Authentication';
const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`event streams: ${database}`, { skip: database === 'PostgreSQL' && skipPostgres }, () => {
    let t: TestApp;
    let tls: { cert: string; key: string };
    let token: string;
    let clientId: string;
    const api = (method: string, url: string, body?: unknown, as = token) => t.management(method, `/api/v2${url}`, { token: as, ...(body !== undefined && { body }) });
    const delivery = () => new EventStreamDelivery(t.ctx, httpsPoster({ ca: tls.cert, timeoutMs: 2000, keepAliveSockets: 4, outbound: LOOPBACK_ALLOWED }));
    const webhook = (url: string, extra: Record<string, unknown> = {}) => ({
      name: 'audit',
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }, { event_type: 'user.deleted' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: url, webhook_authorization: { method: 'bearer', token: 'very-secret-token' } } },
      ...extra,
    });

    before(async () => {
      // The receivers listen on the loopback interface: the operator allows it here (the refusal without it is tested below).
      t = await createTestApp({ postgres: database === 'PostgreSQL', env: { GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
      token = await t.managementToken();
      const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
      tls = { cert: material.certPem, key: material.keyPem };
      clientId = (await insertClient(t, { name: 'App', grant_types: ['password'] })).client_id;
      assert.equal((await api('POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [clientId] })).statusCode, 201);
    });
    after(() => t.close());

    it('creates, lists, reads, updates and deletes a stream; the secret is sealed and never returned', async () => {
      const created = await api('POST', '/event-streams', webhook('https://hooks.example.com/in'));
      assert.equal(created.statusCode, 201, created.body);
      const stream = created.json() as { id: string; destination: unknown; created_at: string; updated_at: string };
      assert.match(stream.id, /^est_[A-Za-z0-9]{22}$/);
      assert.deepEqual(stream, {
        id: stream.id,
        name: 'audit',
        subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }, { event_type: 'user.deleted' }],
        destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/in', webhook_authorization: { method: 'bearer' } } },
        status: 'enabled',
        created_at: stream.created_at,
        updated_at: stream.updated_at,
      });
      assert.doesNotMatch(created.body, /very-secret-token/);
      const row = await t.ctx.stores.eventStreams.get(t.tenant.id, stream.id);
      assert.ok(row?.authorization_enc && !row.authorization_enc.includes('very-secret-token'));

      const listed = await api('GET', '/event-streams');
      assert.equal(listed.statusCode, 200);
      assert.deepEqual((listed.json() as { eventStreams: { id: string }[] }).eventStreams.map((s) => s.id), [stream.id]);
      assert.equal((await api('GET', `/event-streams/${stream.id}`)).json().name, 'audit');

      // A basic authorization: the username is shown, the password is not.
      const patched = await api('PATCH', `/event-streams/${stream.id}`, {
        name: 'audit-2',
        status: 'disabled',
        destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/v2', webhook_authorization: { method: 'basic', username: 'gate', password: 'pw-secret' } } },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().destination.configuration.webhook_authorization, { method: 'basic', username: 'gate' });
      assert.equal(patched.json().status, 'disabled');
      assert.doesNotMatch(patched.body, /pw-secret/);
      // The same authorization without its secret keeps the sealed one; a new method needs its secret.
      const kept = await api('PATCH', `/event-streams/${stream.id}`, { destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/v3', webhook_authorization: { method: 'basic', username: 'gate' } } } });
      assert.equal(kept.statusCode, 200, kept.body);
      const missing = await api('PATCH', `/event-streams/${stream.id}`, { destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/v3', webhook_authorization: { method: 'bearer' } } } });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /Missing required property: token/);

      assert.equal((await api('DELETE', `/event-streams/${stream.id}`)).statusCode, 204);
      assert.equal((await api('GET', `/event-streams/${stream.id}`)).statusCode, 404);
      assert.equal((await api('DELETE', `/event-streams/${stream.id}`)).statusCode, 404);
    });

    it('refuses bad input with 400 in the Management API shape, changing nothing', async () => {
      const cases: [unknown, RegExp, string?][] = [
        [webhook('http://hooks.example.com/in'), /webhook_endpoint/],
        [webhook('https://user:pw@hooks.example.com/in'), /may not carry credentials/],
        [{ ...webhook('https://hooks.example.com/in'), subscriptions: [{ event_type: 'user.exploded' }] }, /No enum match for: user.exploded/],
        [{ destination: { type: 'eventbridge', configuration: { aws_account_id: '123456789012', aws_region: 'us-east-1' } } }, /"eventbridge" are not available in Gatehouse/, 'operation_not_supported'],
        [{ destination: { type: 'action', configuration: { action_id: 'x' } } }, /"action" are not available in Gatehouse/, 'operation_not_supported'],
        [{ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://h.example.com', webhook_authorization: { method: 'custom_header', header_key: 'Host', header_value: 'x' } } } }, /set by Gatehouse itself/],
        [{ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://h.example.com', webhook_authorization: { method: 'digest' } } } }, /webhook_authorization/],
        [{ ...webhook('https://hooks.example.com/in'), extra: 1 }, /Additional properties not allowed: extra/],
      ];
      for (const [body, message, code] of cases) {
        const res = await api('POST', '/event-streams', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        assert.match(res.json().message, message);
        if (code) assert.equal(res.json().errorCode, code);
      }
      const badId = await api('GET', '/event-streams/est_invalid_id_1234567890');
      assert.equal(badId.statusCode, 400);
      assert.deepEqual(badId.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: "Path validation error: 'Object didn't pass validation for format event-stream-id: est_invalid_id_1234567890' on property id (Unique identifier for the event stream.).",
        errorCode: 'invalid_uri',
      });
      assert.equal((await api('GET', '/event-streams')).json().eventStreams.length, 0);
    });

    it('asks for the document\'s scopes', async () => {
      const reader = await t.managementToken('read:event_streams');
      assert.equal((await api('GET', '/event-streams', undefined, reader)).statusCode, 200);
      const refused = await api('POST', '/event-streams', webhook('https://hooks.example.com/in'), reader);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().errorCode, 'insufficient_scope');
    });

    it('delivers user events as CloudEvents with the authorization, retrying with backoff; failures are listed and redelivered', async () => {
      await withReceiver(tls, 1, async (receiver) => {
        const stream = (await api('POST', '/event-streams', webhook(receiver.url))).json() as { id: string };
        const created = await api('POST', '/users', { connection: REALM, email: 'ann@example.com', password: 'Pa55word!x', email_verified: true });
        assert.equal(created.statusCode, 201, created.body);
        const userId = created.json().user_id as string;
        assert.equal((await api('PATCH', `/users/${encodeURIComponent(userId)}`, { given_name: 'Ann' })).statusCode, 200);
        assert.equal((await api('DELETE', `/users/${encodeURIComponent(userId)}`)).statusCode, 204);

        const worker = delivery();
        // The first attempt of one event is refused (503): it is failed, listed, and retried after the backoff.
        const first = await worker.runOnce();
        assert.deepEqual(first, { delivered: 2, failed: 1 });
        const failures = await api('GET', `/event-streams/${stream.id}/deliveries`);
        assert.equal(failures.statusCode, 200, failures.body);
        const [failed] = (failures.json() as { deliveries: { id: string; status: string; event_type: string; attempts: { status: string; error_message: string }[]; event: { id: string; data: unknown } }[] }).deliveries;
        assert.equal(failed!.status, 'failed');
        assert.equal(failed!.attempts[0]!.error_message, 'HTTP 503');
        assert.equal(typeof failed!.event.data, 'object');
        const history = await api('GET', `/event-streams/${stream.id}/deliveries/${failed!.event.id}`);
        assert.equal(history.statusCode, 200);
        assert.equal(history.json().id, failed!.id);
        assert.deepEqual(await worker.runOnce(), { delivered: 0, failed: 0 }, 'not retried before the backoff');
        assert.deepEqual(await withClockAdvanced(t, FIRST_RETRY_MS, () => worker.runOnce()), { delivered: 1, failed: 0 });
        assert.equal((await api('GET', `/event-streams/${stream.id}/deliveries`)).json().deliveries.length, 0);
        assert.equal((await api('GET', `/event-streams/${stream.id}/deliveries/${failed!.event.id}`)).json().status, 'delivered');

        const types = events(receiver).map((r) => r.body.type).sort();
        assert.deepEqual(types, ['user.created', 'user.deleted', 'user.updated']);
        for (const { headers, body } of events(receiver)) {
          assert.equal(headers.authorization, 'Bearer very-secret-token');
          assert.match(String(headers['content-type']), /^application\/json/);
          assert.equal(body.specversion, '1.0');
          assert.match(body.id, /^evt_[A-Za-z0-9]{22}$/);
          assert.equal(body.source, `urn:auth0:${DOMAIN}`);
          assert.equal(body.a0stream, stream.id);
          assert.equal(body.a0tenant, t.tenant.name);
          assert.ok(!Number.isNaN(Date.parse(String(body.time))));
          assert.equal(body.data.object.user_id, userId);
          assert.ok(!('password_hash' in body.data.object));
        }
        assert.equal(events(receiver).find((r) => r.body.type === 'user.updated')!.body.data.object.given_name, 'Ann');

        // A test event goes to the stream whatever it subscribes to; redelivery of a delivered event is refused.
        const test = await api('POST', `/event-streams/${stream.id}/test`, { event_type: 'organization.created', data: { hello: 'world' } });
        assert.equal(test.statusCode, 202, test.body);
        assert.equal(test.json().status, 'pending');
        assert.deepEqual(await worker.runOnce(), { delivered: 1, failed: 0 });
        assert.deepEqual(events(receiver).at(-1)!.body.data.object, { hello: 'world' });
        assert.equal(events(receiver).at(-1)!.body.a0purpose, 'test');
        assert.equal((await api('POST', `/event-streams/${stream.id}/redeliver/${test.json().event.id}`)).statusCode, 404);

        // Given a failure, redelivery makes it due at once, without waiting for the backoff.
        receiver.failFirst = 1;
        assert.equal((await api('POST', `/event-streams/${stream.id}/test`, { event_type: 'user.created' })).statusCode, 202);
        assert.deepEqual(await worker.runOnce(), { delivered: 0, failed: 1 });
        const redeliver = await api('POST', `/event-streams/${stream.id}/redeliver`, { event_types: ['user.created'], statuses: ['failed'] });
        assert.equal(redeliver.statusCode, 202, redeliver.body);
        assert.deepEqual(redeliver.json(), { event_types: ['user.created'], statuses: ['failed'] });
        assert.deepEqual(await worker.runOnce(), { delivered: 1, failed: 0 });
        assert.equal((await api('DELETE', `/event-streams/${stream.id}`)).statusCode, 204);
      });
    });

    it('signup and organization changes are announced to the streams subscribed to them, disabled streams hear nothing', async () => {
      await withReceiver(tls, 0, async (receiver) => {
        const orgTypes = ['organization.created', 'organization.updated', 'organization.deleted', 'organization.member.added', 'organization.member.deleted'];
        const stream = (await api('POST', '/event-streams', webhook(receiver.url, { subscriptions: ['user.created', ...orgTypes].map((event_type) => ({ event_type })) }))).json() as { id: string };
        const disabled = (await api('POST', '/event-streams', webhook(receiver.url, { status: 'disabled' }))).json() as { id: string };
        const signup = await t.app.inject({ method: 'POST', url: '/dbconnections/signup', headers: { host: DOMAIN }, payload: { client_id: clientId, connection: REALM, email: 'bob@example.com', password: 'Pa55word!x' } });
        assert.equal(signup.statusCode, 200, signup.body);
        const bob = (await api('GET', `/users-by-email?email=bob@example.com`)).json()[0].user_id as string;
        const org = (await api('POST', '/organizations', { name: 'acme' })).json() as { id: string };
        assert.equal((await api('PATCH', `/organizations/${org.id}`, { display_name: 'Acme' })).statusCode, 200);
        assert.equal((await api('POST', `/organizations/${org.id}/members`, { members: [bob] })).statusCode, 204);
        // Already a member: nothing new to announce.
        assert.equal((await api('POST', `/organizations/${org.id}/members`, { members: [bob] })).statusCode, 204);
        assert.equal((await api('DELETE', `/organizations/${org.id}/members`, { members: [bob] })).statusCode, 204);
        assert.equal((await api('DELETE', `/organizations/${org.id}`)).statusCode, 204);
        await delivery().runOnce();
        assert.deepEqual(events(receiver).map((r) => r.body.type).sort(), ['user.created', ...orgTypes].sort());
        assert.ok(events(receiver).every((r) => r.body.a0stream === stream.id));
        const added = events(receiver).find((r) => r.body.type === 'organization.member.added')!;
        assert.deepEqual(added.body.data.object, { organization: { id: org.id, name: 'acme' }, user: { user_id: bob } });
        assert.equal(events(receiver).find((r) => r.body.type === 'user.created')!.body.data.object.email, 'bob@example.com');
        assert.equal(events(receiver).find((r) => r.body.type === 'organization.updated')!.body.data.object.display_name, 'Acme');
        await api('DELETE', `/event-streams/${stream.id}`);
        await api('DELETE', `/event-streams/${disabled.id}`);
      });
    });

    it('a delivery to a loopback address is refused when connecting unless GATEHOUSE_OUTBOUND_ALLOW allows it', async () => {
      await withReceiver(tls, 0, async (receiver) => {
        // The stream was accepted under this process's allow; a process without it (the default) refuses to connect.
        const stream = (await api('POST', '/event-streams', webhook(receiver.url))).json() as { id: string };
        assert.equal((await api('POST', `/event-streams/${stream.id}/test`, { event_type: 'user.created' })).statusCode, 202);
        const guarded = new EventStreamDelivery(t.ctx, httpsPoster({ ca: tls.cert, timeoutMs: 2000 }));
        assert.deepEqual(await guarded.runOnce(), { delivered: 0, failed: 1 });
        assert.equal(receiver.accepted.length + receiver.refused, 0, 'nothing reached the receiver');
        const failures = (await api('GET', `/event-streams/${stream.id}/deliveries`)).json() as { deliveries: { attempts: { error_message: string }[] }[] };
        assert.match(failures.deliveries[0]!.attempts[0]!.error_message, /127\.0\.0\.1 is not a public address.*GATEHOUSE_OUTBOUND_ALLOW/);
        await api('DELETE', `/event-streams/${stream.id}`);
      });
    });

    it('a webhook whose certificate no trusted authority issued is refused', async () => {
      await withReceiver(tls, 0, async (receiver) => {
        const stream = (await api('POST', '/event-streams', webhook(receiver.url))).json() as { id: string };
        assert.equal((await api('POST', `/event-streams/${stream.id}/test`, { event_type: 'user.created' })).statusCode, 202);
        // The system roots only (no GATEHOUSE_EVENT_STREAM_CA_FILE), over kept-alive connections as the server posts.
        const untrusting = new EventStreamDelivery(t.ctx, httpsPoster({ timeoutMs: 2000, keepAliveSockets: 4, outbound: LOOPBACK_ALLOWED }));
        assert.deepEqual(await untrusting.runOnce(), { delivered: 0, failed: 1 });
        assert.equal(receiver.accepted.length, 0);
        const failures = (await api('GET', `/event-streams/${stream.id}/deliveries`)).json() as { deliveries: { attempts: { error_message: string }[] }[] };
        assert.match(failures.deliveries[0]!.attempts[0]!.error_message, /self-signed certificate|unable to verify/);
        await api('DELETE', `/event-streams/${stream.id}`);
      });
    });

    it('two workers at once send each event once', async () => {
      await withReceiver(tls, 0, async (receiver) => {
        const stream = (await api('POST', '/event-streams', webhook(receiver.url))).json() as { id: string };
        for (let i = 0; i < 30; i++) assert.equal((await api('POST', `/event-streams/${stream.id}/test`, { event_type: 'user.created', data: { i } })).statusCode, 202);
        const rounds = await Promise.all([delivery().runOnce(), delivery().runOnce()]);
        assert.equal(rounds[0].delivered + rounds[1].delivered, 30);
        assert.deepEqual(events(receiver).map((r) => r.body.data.object.i).sort((a, b) => Number(a) - Number(b)), Array.from({ length: 30 }, (_, i) => i));
        await api('DELETE', `/event-streams/${stream.id}`);
      });
    });
  });
}

describe('event streams: outbound guard', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('refuses a loopback or private destination without GATEHOUSE_OUTBOUND_ALLOW at create', async () => {
    const token = await t.managementToken();
    const body = (url: string) => ({ subscriptions: [{ event_type: 'user.created' }], destination: { type: 'webhook', configuration: { webhook_endpoint: url, webhook_authorization: { method: 'bearer', token: 't' } } } });
    for (const url of ['https://127.0.0.1:8443/hook', 'https://localhost/hook', 'https://[::1]/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest']) {
      const res = await t.management('POST', '/api/v2/event-streams', { token, body: body(url) });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(res.json().message, /GATEHOUSE_OUTBOUND_ALLOW/);
    }
  });
});
