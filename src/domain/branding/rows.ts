/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** What a `ui_settings` row holds (src/domain/branding/). */
export type UiSettingKind = 'branding' | 'prompts' | 'custom_text' | 'theme' | 'page_template' | 'phone_template' | 'prompt_partials' | 'phone_provider' | 'prompt_rendering';

/** One document of the hosted pages' look and texts (migration 0080). */
export interface UiSettingRow {
  tenant_id: string;
  kind: UiSettingKind;
  /** '' for branding, prompts and the theme (one per tenant); `<prompt>/<language>` for custom text. */
  key: string;
  value: Record<string, unknown>;
  updated_at: string;
}
