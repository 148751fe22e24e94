import type { DeliveryFilter, EventStreamChanges, EventStreamStore } from '../../domain/event-streams/store.js';
import { sql } from 'kysely';
import type { EventDeliveryAttempt, EventDeliveryRow, EventStreamRow, TenantEventRow } from '../../domain/event-streams/rows.js';
import { atomically, type Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';
import { isPostgres } from './user-search.js';

export class KyselyEventStreamStore implements EventStreamStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, page: { after?: string; limit: number }): Promise<EventStreamRow[]> {
    let query = this.db.selectFrom('event_streams').selectAll().where('tenant_id', '=', tenantId);
    if (page.after !== undefined) query = query.where('id', '>', page.after);
    const rows = await query.orderBy('id').limit(page.limit).execute();
    return rows.map((row) => fromStored('event_streams', row));
  }

  async count(tenantId: string): Promise<number> {
    const row = await this.db.selectFrom('event_streams').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(tenantId: string, id: string): Promise<EventStreamRow | undefined> {
    const row = await this.db.selectFrom('event_streams').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('event_streams', row);
  }

  async create(row: EventStreamRow): Promise<void> {
    await this.db.insertInto('event_streams').values(toStored('event_streams', row)).execute();
  }

  async update(tenantId: string, id: string, changes: EventStreamChanges, now: string): Promise<EventStreamRow | undefined> {
    await this.db
      .updateTable('event_streams')
      .set({ ...toStored('event_streams', changes), updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('event_streams').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async subscribers(tenantId: string, eventType: string): Promise<EventStreamRow[]> {
    const rows = await this.db.selectFrom('event_streams').selectAll().where('tenant_id', '=', tenantId).where('status', '=', 'enabled').execute();
    return rows.map((row) => fromStored('event_streams', row)).filter((row) => row.subscriptions.includes(eventType));
  }

  async enqueue(rows: readonly EventDeliveryRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('event_deliveries')
      .values(rows.map((row) => toStored('event_deliveries', row)))
      .execute();
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<EventDeliveryRow[]> {
    let due = this.db
      .selectFrom('event_deliveries as d')
      .select('d.id')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_streams as s')
            .select('s.id')
            .whereRef('s.tenant_id', '=', 'd.tenant_id')
            .whereRef('s.id', '=', 'd.stream_id')
            .where('s.status', '=', 'enabled'),
        ),
      )
      .orderBy('d.next_attempt_at')
      .limit(limit);
    if (isPostgres(this.db)) due = due.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable('event_deliveries')
      .set({ next_attempt_at: leaseUntil })
      .where('id', 'in', due)
      // Rechecked on the row as it is updated: of two claims racing for a row, only the first moves it.
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .returningAll()
      .execute();
    return rows.map((row) => fromStored('event_deliveries', row));
  }

  async delivered(ids: readonly string[], now: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('event_deliveries')
      .set((eb) => ({ status: 'delivered', delivered_at: now, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', ids)
      .execute();
  }

  async failed(id: string, attempts: number, log: readonly EventDeliveryAttempt[], nextAttemptAt: string | null): Promise<void> {
    await this.db
      .updateTable('event_deliveries')
      .set({
        attempts,
        attempt_log: JSON.stringify(log),
        ...(nextAttemptAt === null ? { status: 'failed' } : { next_attempt_at: nextAttemptAt }),
      })
      .where('id', '=', id)
      .execute();
  }

  private failing(tenantId: string, streamId: string, filter: DeliveryFilter) {
    let query = this.db
      .selectFrom('event_deliveries')
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('status', '!=', 'delivered')
      .where('attempts', '>', 0);
    if (filter.eventTypes !== undefined && filter.eventTypes.length > 0) query = query.where('event_type', 'in', [...filter.eventTypes]);
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
    return query;
  }

  async failures(tenantId: string, streamId: string, filter: DeliveryFilter, page: { after?: string; limit: number }): Promise<EventDeliveryRow[]> {
    let query = this.failing(tenantId, streamId, filter).selectAll();
    if (page.after !== undefined) query = query.where('id', '>', page.after);
    const rows = await query.orderBy('id').limit(page.limit).execute();
    return rows.map((row) => fromStored('event_deliveries', row));
  }

  async delivery(tenantId: string, streamId: string, eventId: string): Promise<EventDeliveryRow | undefined> {
    const row = await this.db
      .selectFrom('event_deliveries')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row && fromStored('event_deliveries', row);
  }

  async redeliver(tenantId: string, streamId: string, filter: DeliveryFilter, now: string): Promise<number> {
    const ids = this.failing(tenantId, streamId, filter).select('id');
    const result = await this.db.updateTable('event_deliveries').set({ status: 'pending', next_attempt_at: now }).where('id', 'in', ids).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async redeliverOne(tenantId: string, streamId: string, eventId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('event_deliveries')
      .set({ status: 'pending', next_attempt_at: now })
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', streamId)
      .where('event_id', '=', eventId)
      .where('status', '!=', 'delivered')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async appendEvent(row: Omit<TenantEventRow, 'seq'>): Promise<number> {
    return atomically(this.db, async (trx) => {
      // The counter row stays locked until the transaction ends: positions commit in order, without gaps.
      const { seq } = await trx
        .insertInto('tenant_event_counters')
        .values({ tenant_id: row.tenant_id, seq: 1 })
        .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ seq: sql<number>`tenant_event_counters.seq + 1` }))
        .returning('seq')
        .executeTakeFirstOrThrow();
      await trx.insertInto('tenant_events').values(toStored('tenant_events', { ...row, seq: Number(seq) })).execute();
      return Number(seq);
    });
  }

  async eventsAfter(tenantId: string, after: number, limit: number): Promise<TenantEventRow[]> {
    const rows = await this.db.selectFrom('tenant_events').selectAll().where('tenant_id', '=', tenantId).where('seq', '>', after).orderBy('seq').limit(limit).execute();
    return rows.map((row) => ({ ...fromStored('tenant_events', row), seq: Number(row.seq) }));
  }

  async eventLogBounds(tenantId: string): Promise<{ latest: number; oldest: number | undefined }> {
    const counter = await this.db.selectFrom('tenant_event_counters').select('seq').where('tenant_id', '=', tenantId).executeTakeFirst();
    const oldest = await this.db.selectFrom('tenant_events').select('seq').where('tenant_id', '=', tenantId).orderBy('seq').limit(1).executeTakeFirst();
    return { latest: counter ? Number(counter.seq) : 0, oldest: oldest ? Number(oldest.seq) : undefined };
  }

  async firstEventSince(tenantId: string, time: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('tenant_events').select('seq').where('tenant_id', '=', tenantId).where('created_at', '>=', time).orderBy('created_at').orderBy('seq').limit(1).executeTakeFirst();
    return row ? Number(row.seq) : undefined;
  }
}
