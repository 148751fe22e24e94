import type { ActionBindingStore, ActionChanges, ActionExecutionStore, ActionListFilter, ActionStore, BoundRow, BuildOutcome } from '../../domain/actions/store.js';
import type { ActionBindingRow, ActionExecutionRow, ActionRow, ActionVersionRow } from '../../domain/actions/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';
import { chunks } from '../links.js';

const countOf = (row: { n: string | number | bigint } | undefined): number => Number(row?.n ?? 0);

export class KyselyActionStore implements ActionStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, filter: ActionListFilter, window: { offset: number; limit: number }): Promise<{ rows: ActionRow[]; total: number }> {
    let query = this.db.selectFrom('actions').where('tenant_id', '=', tenantId);
    if (filter.actionName !== undefined) query = query.where('name', '=', filter.actionName);
    if (filter.deployed !== undefined) query = query.where('deployed_version_id', filter.deployed ? 'is not' : 'is', null);
    // One trigger per action (the document's rule): a match on the JSON text of its only entry.
    if (filter.triggerId !== undefined) query = query.where('supported_triggers', 'like', `[{"id":${JSON.stringify(filter.triggerId)},%`);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at').orderBy('id').offset(window.offset).limit(window.limit).execute(),
      query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    ]);
    return { rows: rows.map((row) => fromStored('actions', row)), total: countOf(total) };
  }

  async count(tenantId: string): Promise<number> {
    return countOf(await this.db.selectFrom('actions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst());
  }

  async get(tenantId: string, id: string): Promise<ActionRow | undefined> {
    const row = await this.db.selectFrom('actions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('actions', row);
  }

  async getByName(tenantId: string, name: string): Promise<ActionRow | undefined> {
    const row = await this.db.selectFrom('actions').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
    return row && fromStored('actions', row);
  }

  async create(row: ActionRow): Promise<boolean> {
    if (await this.getByName(row.tenant_id, row.name)) return false;
    try {
      await this.db.insertInto('actions').values(toStored('actions', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, id: string, changes: ActionChanges, now: string): Promise<ActionRow | undefined | 'name_taken'> {
    if (changes.name !== undefined) {
      const other = await this.getByName(tenantId, changes.name);
      if (other && other.id !== id) return 'name_taken';
    }
    await this.db
      .updateTable('actions')
      .set({ ...toStored('actions', changes), updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    // Bindings and versions go with it (the foreign keys cascade; deleted here too for SQLite without them enforced).
    await this.db.deleteFrom('action_bindings').where('tenant_id', '=', tenantId).where('action_id', '=', id).execute();
    await this.db.deleteFrom('action_versions').where('tenant_id', '=', tenantId).where('action_id', '=', id).execute();
    const result = await this.db.deleteFrom('actions').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setBuild(tenantId: string, buildKey: string, outcome: BuildOutcome, now: string): Promise<number> {
    const open = ['pending', 'building'] as const;
    const result = await this.db
      .updateTable('actions')
      .set({ ...toStored('actions', outcome), updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('build_key', '=', buildKey)
      .where('status', 'in', open)
      .executeTakeFirst();
    await this.db
      .updateTable('action_versions')
      .set({ status: outcome.status, built_at: outcome.built_at, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('build_key', '=', buildKey)
      .where('status', 'in', open)
      .execute();
    return Number(result.numUpdatedRows);
  }

  async waitingToDeploy(tenantId: string, buildKey: string): Promise<ActionRow[]> {
    const rows = await this.db
      .selectFrom('actions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('build_key', '=', buildKey)
      .where('deploy_when_built', '=', 1)
      .where('status', '=', 'built')
      .execute();
    return rows.map((row) => fromStored('actions', row));
  }

  async versions(tenantId: string, actionId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionVersionRow[]; total: number }> {
    const query = this.db.selectFrom('action_versions').where('tenant_id', '=', tenantId).where('action_id', '=', actionId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('number', 'desc').offset(window.offset).limit(window.limit).execute(),
      query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    ]);
    return { rows: rows.map((row) => fromStored('action_versions', row)), total: countOf(total) };
  }

  async version(tenantId: string, actionId: string, id: string): Promise<ActionVersionRow | undefined> {
    const row = await this.db
      .selectFrom('action_versions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('action_id', '=', actionId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && fromStored('action_versions', row);
  }

  async lastVersionNumber(tenantId: string, actionId: string): Promise<number> {
    const row = await this.db
      .selectFrom('action_versions')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('tenant_id', '=', tenantId)
      .where('action_id', '=', actionId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertVersion(row: ActionVersionRow): Promise<void> {
    await this.db.insertInto('action_versions').values(toStored('action_versions', row)).execute();
  }

  async pruneVersions(tenantId: string, actionId: string, keep: number, spare: string): Promise<void> {
    const old = await this.db
      .selectFrom('action_versions')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('action_id', '=', actionId)
      .orderBy('number', 'desc')
      .offset(keep)
      .limit(1000)
      .execute();
    const ids = old.map((r) => r.id).filter((id) => id !== spare);
    if (ids.length === 0) return;
    await this.db.deleteFrom('action_versions').where('tenant_id', '=', tenantId).where('action_id', '=', actionId).where('id', 'in', ids).execute();
  }
}

export class KyselyActionBindingStore implements ActionBindingStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, triggerId: string, window: { offset: number; limit: number }): Promise<{ rows: BoundRow[]; total: number }> {
    const query = this.db.selectFrom('action_bindings').where('tenant_id', '=', tenantId).where('trigger_id', '=', triggerId);
    const [bindings, total] = await Promise.all([
      query.selectAll().orderBy('position').offset(window.offset).limit(window.limit).execute(),
      query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    ]);
    const actions = await this.actions(tenantId, bindings.map((b) => b.action_id));
    const rows = bindings.flatMap((binding) => {
      const action = actions.get(binding.action_id);
      return action ? [{ binding, action }] : [];
    });
    return { rows, total: countOf(total) };
  }

  async replace(tenantId: string, triggerId: string, rows: ActionBindingRow[]): Promise<void> {
    await this.db.deleteFrom('action_bindings').where('tenant_id', '=', tenantId).where('trigger_id', '=', triggerId).execute();
    if (rows.length > 0) await this.db.insertInto('action_bindings').values(rows).execute();
  }

  async isBound(tenantId: string, actionId: string): Promise<boolean> {
    const row = await this.db.selectFrom('action_bindings').select('id').where('tenant_id', '=', tenantId).where('action_id', '=', actionId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async deployed(tenantId: string, triggerId: string): Promise<{ binding: ActionBindingRow; action: ActionRow; version: ActionVersionRow }[]> {
    const bindings = await this.db
      .selectFrom('action_bindings')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('trigger_id', '=', triggerId)
      .orderBy('position')
      .execute();
    if (bindings.length === 0) return [];
    const actions = await this.actions(tenantId, bindings.map((b) => b.action_id));
    const versionIds = [...actions.values()].flatMap((a) => (a.deployed_version_id ? [a.deployed_version_id] : []));
    const versions = new Map<string, ActionVersionRow>();
    if (versionIds.length > 0) {
      const rows = await this.db.selectFrom('action_versions').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', versionIds).execute();
      for (const row of rows) versions.set(row.id, fromStored('action_versions', row));
    }
    return bindings.flatMap((binding) => {
      const action = actions.get(binding.action_id);
      const version = action?.deployed_version_id ? versions.get(action.deployed_version_id) : undefined;
      return action && version ? [{ binding, action, version }] : [];
    });
  }

  private async actions(tenantId: string, ids: string[]): Promise<Map<string, ActionRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('actions').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((row) => [row.id, fromStored('actions', row)]));
  }
}

export class KyselyActionExecutionStore implements ActionExecutionStore {
  constructor(private readonly db: Db) {}

  async record(row: ActionExecutionRow): Promise<void> {
    const stored = toStored('action_executions', row);
    await this.db
      .insertInto('action_executions')
      .values(stored)
      .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet({ status: stored.status, results: stored.results, updated_at: stored.updated_at }))
      .execute();
  }

  async recordMany(rows: readonly ActionExecutionRow[]): Promise<void> {
    // The last of the same id wins (one statement may not update a row twice).
    const byId = new Map(rows.map((row) => [`${row.tenant_id}\0${row.id}`, row]));
    for (const chunk of chunks([...byId.values()])) {
      await this.db
        .insertInto('action_executions')
        .values(chunk.map((row) => toStored('action_executions', row)))
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'id']).doUpdateSet((eb) => ({ status: eb.ref('excluded.status'), results: eb.ref('excluded.results'), updated_at: eb.ref('excluded.updated_at') })),
        )
        .execute();
    }
  }

  async get(tenantId: string, id: string, now: string): Promise<ActionExecutionRow | undefined> {
    const row = await this.db
      .selectFrom('action_executions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && fromStored('action_executions', row);
  }
}
