/** Branding, prompts' settings and custom texts of the hosted pages (migration 0080). */
import type { UiSettingsStore } from '../../domain/branding/store.js';
import type { UiSettingKind, UiSettingRow } from '../../domain/branding/rows.js';
import type { Db } from '../database.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

export class KyselyUiSettingsStore implements UiSettingsStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, kind: UiSettingKind, key: string): Promise<UiSettingRow | undefined> {
    return parsedRow(
      'ui_settings',
      this.db.selectFrom('ui_settings').selectAll().where('tenant_id', '=', tenantId).where('kind', '=', kind).where('key', '=', key).executeTakeFirst(),
    );
  }

  list(tenantId: string, kind: UiSettingKind): Promise<UiSettingRow[]> {
    return parsedRows('ui_settings', this.db.selectFrom('ui_settings').selectAll().where('tenant_id', '=', tenantId).where('kind', '=', kind).orderBy('key').execute());
  }

  async put(row: UiSettingRow): Promise<void> {
    const stored = toStored('ui_settings', row);
    await this.db
      .insertInto('ui_settings')
      .values(stored)
      .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'key']).doUpdateSet({ value: stored.value, updated_at: stored.updated_at }))
      .execute();
  }

  async insertNew(row: UiSettingRow): Promise<boolean> {
    const result = await this.db
      .insertInto('ui_settings')
      .values(toStored('ui_settings', row))
      .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async delete(tenantId: string, kind: UiSettingKind, key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('ui_settings').where('tenant_id', '=', tenantId).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
