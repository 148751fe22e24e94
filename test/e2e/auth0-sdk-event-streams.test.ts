/**
 * Event streams driven by the official `auth0` SDK (ManagementClient, v7)
 * over real HTTPS against the built server, delivering to a local HTTPS
 * webhook (its own certificate, trusted through
 * GATEHOUSE_EVENT_STREAM_CA_FILE):
 *
 * - without GATEHOUSE_OUTBOUND_ALLOW a stream to a loopback address is
 *   refused (400, the guard's reason);
 * - with it, every operation of /event-streams is called: create, list, get,
 *   update, test, deliveries list and history, redeliver, redeliver one,
 *   delete; users created, updated and deleted arrive as CloudEvents with the
 *   stream's authorization; a refused attempt is listed and redelivered;
 * - the server is killed (SIGKILL) while a delivery is in flight, and the
 *   event is delivered by the next process: nothing accepted is lost.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { tempDir } from '../helpers/app.js';
import { caFetch, cleanUp, waitFor } from './support/https.js';
import { sdkError } from './support/sdk-error.js';

const REALM = 'Username-Password-Authentication';

interface CloudEventBody {
  specversion: string;
  id: string;
  type: string;
  source: string;
  time: string;
  a0stream: string;
  a0tenant: string;
  data: { object: Record<string, unknown> };
}

describe('auth0 SDK: event streams over HTTPS to a local webhook', () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  let receiver: HttpsReceiver;
  let caFile: string;
  let management: ManagementClient;
  const dirs: string[] = [];
  const received = () => receiver.accepted.map((r) => ({ headers: r.headers, event: JSON.parse(r.body) as CloudEventBody }));

  /** (Re)starts the server on the same data directory; with the loopback allowed unless `guarded`. */
  async function start(options: { guarded?: boolean } = {}): Promise<void> {
    server = await startServerProcess({
      dataDir,
      ...(server && { port: server.port }),
      env: {
        GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000',
        GATEHOUSE_EVENT_STREAM_CA_FILE: caFile,
        GATEHOUSE_EVENT_STREAM_TIMEOUT: '1',
        ...(!options.guarded && { GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES }),
      },
    });
    const admin = server.admin();
    const ca = fs.readFileSync(server.certFile);
    management = new ManagementClient({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
  }

  const webhook = (url: string, authorization: Record<string, string>) =>
    ({ type: 'webhook', configuration: { webhook_endpoint: url, webhook_authorization: authorization } }) as never;

  before(async () => {
    dataDir = tempDir('gatehouse-e2e-events-');
    dirs.push(dataDir);
    const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
    caFile = path.join(dataDir, 'receiver-ca.pem');
    fs.writeFileSync(caFile, material.certPem);
    receiver = new HttpsReceiver({ cert: material.certPem, key: material.keyPem });
    await receiver.up();
  });
  after(async () => {
    await receiver?.down();
    await cleanUp(server ? [server] : [], dirs);
  });

  it('refuses a stream to a loopback address without GATEHOUSE_OUTBOUND_ALLOW', { timeout: 120_000 }, async () => {
    await start({ guarded: true });
    const refused = await sdkError(() => management.eventStreams.create({ name: 'local', subscriptions: [{ event_type: 'user.created' }], destination: webhook(receiver.url, { method: 'bearer', token: 't0ken' }) }));
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body.message, /127\.0\.0\.1 is not a public address.*GATEHOUSE_OUTBOUND_ALLOW/);
    assert.equal((await management.eventStreams.list()).data.length, 0);
    assert.equal(await server!.stop(), 0);
  });

  it('every operation through the SDK; user events arrive as CloudEvents; failures are listed and redelivered', { timeout: 180_000 }, async () => {
    await start();
    await management.connections.create({ name: REALM, strategy: 'auth0' });

    const created = await management.eventStreams.create({
      name: 'audit',
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }],
      destination: webhook(receiver.url, { method: 'bearer', token: 'hook-secret' }),
    });
    const id = created.id!;
    assert.match(id, /^est_[A-Za-z0-9]{22}$/);
    assert.deepEqual(created.destination, { type: 'webhook', configuration: { webhook_endpoint: receiver.url, webhook_authorization: { method: 'bearer' } } });
    assert.deepEqual((await management.eventStreams.list()).data.map((s) => s.id), [id]);
    assert.equal((await management.eventStreams.get(id)).name, 'audit');
    const updated = await management.eventStreams.update(id, {
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }, { event_type: 'user.deleted' }],
      destination: webhook(receiver.url, { method: 'custom_header', header_key: 'X-Hook-Key', header_value: 'custom-secret' }),
    });
    assert.deepEqual(updated.destination, { type: 'webhook', configuration: { webhook_endpoint: receiver.url, webhook_authorization: { method: 'custom_header', header_key: 'X-Hook-Key' } } });

    const user = await management.users.create({ connection: REALM, email: 'eve@example.com', password: 'Pa55word!x', email_verified: true });
    await management.users.update(user.user_id!, { nickname: 'evie' });
    await management.users.delete(user.user_id!);
    assert.ok(await waitFor(() => receiver.accepted.length >= 3, 30_000), `delivered: ${receiver.accepted.length}`);
    const events = received();
    assert.deepEqual(events.map((e) => e.event.type).sort(), ['user.created', 'user.deleted', 'user.updated']);
    for (const { headers, event } of events) {
      assert.equal(headers['x-hook-key'], 'custom-secret');
      assert.equal(event.specversion, '1.0');
      assert.equal(event.source, `urn:auth0:${server!.domain}`);
      assert.equal(event.a0stream, id);
      assert.equal(event.data.object.user_id, user.user_id);
    }

    // A refused attempt: listed among the failed deliveries, with its history; redelivered on request.
    receiver.failFirst = 1;
    const test = await management.eventStreams.test(id, { event_type: 'user.created', data: { probe: 1 } });
    assert.equal(test.event_type, 'user.created');
    assert.ok(await waitFor(() => receiver.refused === 1, 30_000));
    const eventId = test.event!.id!;
    let failed: Awaited<ReturnType<typeof management.eventStreams.deliveries.list>>['data'] = [];
    assert.ok(await waitFor(async () => (failed = (await management.eventStreams.deliveries.list(id)).data).length === 1, 30_000));
    assert.equal(failed[0]!.status, 'failed');
    assert.equal(failed[0]!.attempts[0]!.error_message, 'HTTP 503');
    const history = await management.eventStreams.deliveries.getHistory(id, eventId);
    assert.equal(history.event?.id, eventId);
    assert.deepEqual(history.event!.data, { object: { probe: 1 } });
    await management.eventStreams.redeliveries.createById(id, eventId);
    assert.ok(await waitFor(() => received().some((e) => e.event.id === eventId), 30_000), 'redelivered');
    assert.equal((await management.eventStreams.deliveries.list(id)).data.length, 0);
    const again = await sdkError(() => management.eventStreams.redeliveries.createById(id, eventId));
    assert.equal(again.statusCode, 404);

    const redelivery = await management.eventStreams.redeliveries.create(id, { event_types: ['user.created'], statuses: ['failed'] });
    assert.deepEqual(redelivery, { event_types: ['user.created'], statuses: ['failed'] });

    // Refusals in the Management API's shape.
    assert.equal((await sdkError(() => management.eventStreams.get('est_invalid_id_1234567890'))).body.errorCode, 'invalid_uri');
    const eventbridge = await sdkError(() => management.eventStreams.create({ destination: { type: 'eventbridge', configuration: { aws_account_id: '123456789012', aws_region: 'us-east-1' } } }));
    assert.equal(eventbridge.statusCode, 400);
    assert.equal(eventbridge.body.errorCode, 'operation_not_supported');

    const other = await management.eventStreams.create({ name: 'other', subscriptions: [{ event_type: 'user.created' }], destination: webhook(receiver.url, { method: 'bearer', token: 'x' }) });
    await management.eventStreams.delete(other.id!);
    assert.equal((await sdkError(() => management.eventStreams.get(other.id!))).statusCode, 404);
  });

  it('an event in flight when the server is killed is delivered by the next process', { timeout: 180_000 }, async () => {
    const before = receiver.accepted.length;
    receiver.hold = true;
    const user = await management.users.create({ connection: REALM, email: 'kill@example.com', password: 'Pa55word!x', email_verified: true });
    assert.ok(await waitFor(() => receiver.held >= 1, 30_000), 'the delivery reached the webhook');
    server!.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    receiver.hold = false;
    await start();
    assert.ok(await waitFor(() => receiver.accepted.length > before, 60_000), 'delivered after the restart');
    const delivered = received().slice(before).filter((e) => e.event.type === 'user.created' && e.event.data.object.user_id === user.user_id);
    assert.equal(delivered.length, 1);
    assert.equal((await management.eventStreams.deliveries.list((await management.eventStreams.list()).data[0]!.id!)).data.length, 0);
  });
});
