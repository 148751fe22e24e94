/**
 * The event stream store's contract, through the store factory on every
 * implementation: the outbox is written in the caller's transaction (a
 * rolled-back change leaves no event), due deliveries of enabled streams are
 * claimed once under a lease and due again after it, concurrent claims never
 * take the same row, failures are listed and redelivered, and a stream's
 * deliveries go with it.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores, UnitOfWork } from '../../src/domain/stores.js';
import { deliveryFor, newEventId, newEventStreamId, recordEvent } from '../../src/domain/event-streams/events.js';
import type { EventStreamRow } from '../../src/domain/event-streams/rows.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, T0, tenantRow } from '../helpers/rows.js';

await forEachStoreFactory('event stream storage', (h) => {
  let stores: Stores;
  let unitOfWork: UnitOfWork;
  before(() => {
    stores = h.stores();
    unitOfWork = h.unitOfWork();
  });

  async function newTenant() {
    const row = tenantRow();
    await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return { id: row.id, name: row.name, domain: row.domain };
  }

  async function newStream(tenantId: string, fields: Partial<EventStreamRow> = {}): Promise<EventStreamRow> {
    const row: EventStreamRow = {
      tenant_id: tenantId,
      id: newEventStreamId(),
      name: 's',
      status: 'enabled',
      subscriptions: ['user.created'],
      destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://h.example.com', webhook_authorization: { method: 'bearer' } } },
      authorization_enc: null,
      created_at: at(0),
      updated_at: at(0),
      ...fields,
    };
    await stores.eventStreams.create(row);
    return row;
  }

  it('an event is recorded in the change\'s transaction, for enabled subscribed streams only; a rollback leaves none', async () => {
    const tenant = await newTenant();
    const subscribed = await newStream(tenant.id);
    await newStream(tenant.id, { subscriptions: ['user.deleted'] });
    await newStream(tenant.id, { status: 'disabled' });
    await assert.rejects(
      unitOfWork.transaction(async (trx) => {
        await recordEvent(trx, tenant, 'user.created', { user_id: 'auth0|rolled-back' }, Date.parse(T0));
        throw new Error('the change failed');
      }),
    );
    const eventId = await unitOfWork.transaction((trx) => recordEvent(trx, tenant, 'user.created', { user_id: 'auth0|kept' }, Date.parse(T0)));
    assert.ok(eventId);
    const claimed = (await stores.eventStreams.claimDue(at(1), at(60), 100)).filter((d) => d.tenant_id === tenant.id);
    assert.deepEqual(claimed.map((d) => [d.stream_id, d.event_id, d.event.data.object.user_id]), [[subscribed.id, eventId, 'auth0|kept']]);
  });

  it('a claimed delivery is not claimed again until its lease ends; delivered ones never', async () => {
    const tenant = await newTenant();
    const stream = await newStream(tenant.id);
    const row = deliveryFor(stream, tenant, { id: newEventId(), type: 'user.created', object: {} }, Date.parse(T0));
    await stores.eventStreams.enqueue([row]);
    const mine = (list: { id: string }[]) => list.filter((d) => d.id === row.id).length;
    assert.equal(mine(await stores.eventStreams.claimDue(at(1), at(60), 1000)), 1);
    assert.equal(mine(await stores.eventStreams.claimDue(at(30), at(90), 1000)), 0, 'held by the lease');
    assert.equal(mine(await stores.eventStreams.claimDue(at(60), at(120), 1000)), 1, 'due again once the lease ended');
    await stores.eventStreams.delivered([row.id], at(61));
    assert.equal(mine(await stores.eventStreams.claimDue(at(1000), at(2000), 1000)), 0);
    assert.equal((await stores.eventStreams.delivery(tenant.id, stream.id, row.event_id))?.status, 'delivered');
  });

  it('concurrent claims never take the same delivery', async () => {
    const tenant = await newTenant();
    const stream = await newStream(tenant.id);
    const rows = Array.from({ length: 40 }, () => deliveryFor(stream, tenant, { id: newEventId(), type: 'user.created', object: {} }, Date.parse(T0)));
    await stores.eventStreams.enqueue(rows);
    const ids = new Set(rows.map((r) => r.id));
    const claims = await Promise.all(Array.from({ length: 4 }, () => stores.eventStreams.claimDue(at(1), at(60), 15)));
    const taken = claims.flat().filter((d) => ids.has(d.id)).map((d) => d.id);
    assert.equal(new Set(taken).size, taken.length, 'no delivery claimed twice');
  });

  it('failures are listed by filter and redelivered; a stream\'s deliveries go with it', async () => {
    const tenant = await newTenant();
    const stream = await newStream(tenant.id, { subscriptions: ['user.created', 'user.deleted'] });
    const created = deliveryFor(stream, tenant, { id: newEventId(), type: 'user.created', object: {} }, Date.parse(T0));
    const deleted = deliveryFor(stream, tenant, { id: newEventId(), type: 'user.deleted', object: {} }, Date.parse(T0));
    await stores.eventStreams.enqueue([created, deleted]);
    const log = [{ status: 'failed' as const, timestamp: at(2), error_message: 'HTTP 503' }];
    await stores.eventStreams.failed(created.id, 1, log, null);
    await stores.eventStreams.failed(deleted.id, 1, log, at(600));
    const all = await stores.eventStreams.failures(tenant.id, stream.id, {}, { limit: 10 });
    assert.deepEqual(all.map((d) => d.id).sort(), [created.id, deleted.id].sort());
    assert.deepEqual((await stores.eventStreams.failures(tenant.id, stream.id, { eventTypes: ['user.deleted'] }, { limit: 10 })).map((d) => d.id), [deleted.id]);
    assert.equal((await stores.eventStreams.failures(tenant.id, stream.id, { from: at(10) }, { limit: 10 })).length, 0);
    assert.equal((await stores.eventStreams.delivery(tenant.id, stream.id, created.event_id))?.status, 'failed');
    assert.equal(await stores.eventStreams.redeliver(tenant.id, stream.id, { eventTypes: ['user.created'] }, at(3)), 1);
    assert.deepEqual((await stores.eventStreams.claimDue(at(4), at(60), 1000)).filter((d) => d.stream_id === stream.id).map((d) => d.id), [created.id]);
    assert.equal(await stores.eventStreams.redeliverOne(tenant.id, stream.id, deleted.event_id, at(5)), true);
    assert.equal(await stores.eventStreams.delete(tenant.id, stream.id), true);
    assert.equal(await stores.eventStreams.delivery(tenant.id, stream.id, deleted.event_id), undefined);
  });
});
