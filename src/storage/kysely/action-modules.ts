import type { ActionModuleChanges, ActionModuleStore, ModuleUse } from '../../domain/actions/store.js';
import type { ActionModuleRef, ActionModuleRow, ActionModuleVersionRow } from '../../domain/actions/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';

const countOf = (row: { n: string | number | bigint } | undefined): number => Number(row?.n ?? 0);

export class KyselyActionModuleStore implements ActionModuleStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionModuleRow[]; total: number }> {
    const query = this.db.selectFrom('action_modules').where('tenant_id', '=', tenantId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at').orderBy('id').offset(window.offset).limit(window.limit).execute(),
      query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    ]);
    return { rows: rows.map((row) => fromStored('action_modules', row)), total: countOf(total) };
  }

  async count(tenantId: string): Promise<number> {
    return countOf(await this.db.selectFrom('action_modules').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst());
  }

  async get(tenantId: string, id: string): Promise<ActionModuleRow | undefined> {
    const row = await this.db.selectFrom('action_modules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('action_modules', row);
  }

  async getByName(tenantId: string, name: string): Promise<ActionModuleRow | undefined> {
    const row = await this.db.selectFrom('action_modules').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
    return row && fromStored('action_modules', row);
  }

  async create(row: ActionModuleRow): Promise<boolean> {
    if (await this.getByName(row.tenant_id, row.name)) return false;
    try {
      await this.db.insertInto('action_modules').values(toStored('action_modules', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, id: string, changes: ActionModuleChanges, now: string): Promise<ActionModuleRow | undefined> {
    await this.db
      .updateTable('action_modules')
      .set({ ...toStored('action_modules', changes), updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return this.get(tenantId, id);
  }

  async claimDraft(tenantId: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('action_modules')
      .set({ draft_pending: 0, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('draft_pending', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    await this.db.deleteFrom('action_module_versions').where('tenant_id', '=', tenantId).where('module_id', '=', id).execute();
    const result = await this.db.deleteFrom('action_modules').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async versions(tenantId: string, moduleId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionModuleVersionRow[]; total: number }> {
    const query = this.db.selectFrom('action_module_versions').where('tenant_id', '=', tenantId).where('module_id', '=', moduleId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('number', 'desc').offset(window.offset).limit(window.limit).execute(),
      query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
    ]);
    return { rows: rows.map((row) => fromStored('action_module_versions', row)), total: countOf(total) };
  }

  async version(tenantId: string, moduleId: string, id: string): Promise<ActionModuleVersionRow | undefined> {
    const row = await this.db
      .selectFrom('action_module_versions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('module_id', '=', moduleId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && fromStored('action_module_versions', row);
  }

  async versionByNumber(tenantId: string, moduleId: string, number: number): Promise<ActionModuleVersionRow | undefined> {
    const row = await this.db
      .selectFrom('action_module_versions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('module_id', '=', moduleId)
      .where('number', '=', number)
      .executeTakeFirst();
    return row && fromStored('action_module_versions', row);
  }

  async lastVersionNumber(tenantId: string, moduleId: string): Promise<number> {
    const row = await this.db
      .selectFrom('action_module_versions')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('tenant_id', '=', tenantId)
      .where('module_id', '=', moduleId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertVersion(row: ActionModuleVersionRow): Promise<boolean> {
    try {
      await this.db.insertInto('action_module_versions').values(toStored('action_module_versions', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async deleteVersion(tenantId: string, moduleId: string, id: string): Promise<void> {
    await this.db.deleteFrom('action_module_versions').where('tenant_id', '=', tenantId).where('module_id', '=', moduleId).where('id', '=', id).execute();
  }

  async uses(tenantId: string, moduleId: string): Promise<ModuleUse[]> {
    // A tenant has at most MAX_ACTIONS actions: those that use any module are read and matched here.
    const actions = (await this.db.selectFrom('actions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute()).map((row) => fromStored('actions', row));
    const deployedIds = actions.map((a) => a.deployed_version_id).filter((id): id is string => id !== null);
    const deployed = new Map<string, ActionModuleRef[]>();
    if (deployedIds.length > 0) {
      const rows = await this.db.selectFrom('action_versions').select(['id', 'modules']).where('tenant_id', '=', tenantId).where('id', 'in', deployedIds).execute();
      for (const row of rows) deployed.set(row.id, fromStored('action_versions', row).modules);
    }
    const out: ModuleUse[] = [];
    for (const action of actions) {
      const inDeployed = (action.deployed_version_id ? deployed.get(action.deployed_version_id) : undefined)?.find((m) => m.module_id === moduleId) ?? null;
      const inDraft = action.modules.find((m) => m.module_id === moduleId) ?? null;
      if (inDeployed || inDraft) out.push({ action, deployed: inDeployed, draft: inDraft });
    }
    return out;
  }
}
