/**
 * Storage of what the hosted pages look like and say (branding, the prompts'
 * settings, custom texts), one JSON document per (kind, key).
 * Implemented by src/storage/kysely/ui-settings.ts; the composition root builds one.
 */
import type { UiSettingKind, UiSettingRow } from './rows.js';

export interface UiSettingsStore {
  /** The document of `kind` under `key`, if one was stored. */
  get(tenantId: string, kind: UiSettingKind, key: string): Promise<UiSettingRow | undefined>;
  /** Every document of `kind`, by key. */
  list(tenantId: string, kind: UiSettingKind): Promise<UiSettingRow[]>;
  /** Stores (or replaces) the document of `kind` under `key`. */
  put(row: UiSettingRow): Promise<void>;
  /** Stores the document only if none is stored under its kind and key; false when one was. */
  insertNew(row: UiSettingRow): Promise<boolean>;
  /** Removes the document of `kind` under `key`; false when there was none. */
  delete(tenantId: string, kind: UiSettingKind, key: string): Promise<boolean>;
}
