/**
 * Reading and changing what the hosted pages look like and say: the
 * tenant's branding, its prompts' settings, and its custom texts per prompt
 * and language. The Management API changes them (src/management/branding/,
 * src/management/prompts/), the hosted pages read them (src/authentication/
 * page-ui.ts). Inputs are validated by the callers (./branding.ts,
 * ./texts.ts) before they reach these functions.
 */
import { isoAt } from '../../platform/clock.js';
import { DEFAULT_PROMPT_SETTINGS, type Branding, type PromptSettings } from './branding.js';
import type { CustomTexts, Language, PromptName } from './texts.js';
import type { UiSettingsStore } from './store.js';

/** What reading and writing the hosted pages' settings touches. */
export interface UiSettingsContext {
  readonly now: () => number;
  readonly stores: { readonly uiSettings: UiSettingsStore };
}

type Ctx = UiSettingsContext;

export async function readBranding(ctx: Ctx, tenantId: string): Promise<Branding> {
  return ((await ctx.stores.uiSettings.get(tenantId, 'branding', ''))?.value ?? {}) as Branding;
}

/**
 * PATCH semantics of the service: a member given replaces the stored one, a
 * `null` removes it; `colors` and `font` are merged member by member.
 */
export async function updateBranding(ctx: Ctx, tenantId: string, changes: Record<string, unknown>): Promise<Branding> {
  const current = (await readBranding(ctx, tenantId)) as Record<string, unknown>;
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) {
      delete next[name];
    } else if ((name === 'colors' || name === 'font') && typeof value === 'object') {
      const merged: Record<string, unknown> = { ...((current[name] as Record<string, unknown> | undefined) ?? {}) };
      for (const [member, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === null) delete merged[member];
        else merged[member] = v;
      }
      if (Object.keys(merged).length === 0) delete next[name];
      else next[name] = merged;
    } else {
      next[name] = value;
    }
  }
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'branding', key: '', value: next, updated_at: isoAt(ctx.now()) });
  return next as Branding;
}

export async function readPromptSettings(ctx: Ctx, tenantId: string): Promise<PromptSettings> {
  const stored = (await ctx.stores.uiSettings.get(tenantId, 'prompts', ''))?.value ?? {};
  return { ...DEFAULT_PROMPT_SETTINGS, ...(stored as Partial<PromptSettings>) };
}

/** A member set to `null` goes back to its default. */
export async function updatePromptSettings(ctx: Ctx, tenantId: string, changes: Partial<Record<keyof PromptSettings, unknown>>): Promise<PromptSettings> {
  const stored = { ...((await ctx.stores.uiSettings.get(tenantId, 'prompts', ''))?.value ?? {}) } as Record<string, unknown>;
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete stored[name];
    else stored[name] = value;
  }
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'prompts', key: '', value: stored, updated_at: isoAt(ctx.now()) });
  return { ...DEFAULT_PROMPT_SETTINGS, ...(stored as Partial<PromptSettings>) };
}

const textKey = (prompt: PromptName, language: Language) => `${prompt}/${language}`;

export async function readCustomText(ctx: Ctx, tenantId: string, prompt: PromptName, language: Language): Promise<CustomTexts> {
  return ((await ctx.stores.uiSettings.get(tenantId, 'custom_text', textKey(prompt, language)))?.value ?? {}) as CustomTexts;
}

/** Replaces the prompt's custom texts in that language (the service's PUT: what is not given goes back to the default). */
export async function putCustomText(ctx: Ctx, tenantId: string, prompt: PromptName, language: Language, texts: CustomTexts): Promise<void> {
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'custom_text', key: textKey(prompt, language), value: texts, updated_at: isoAt(ctx.now()) });
}

/** Every prompt's custom texts in one language: prompt → screen → key → text. */
export async function customTextsIn(ctx: Ctx, tenantId: string, language: Language): Promise<Record<string, CustomTexts>> {
  const out: Record<string, CustomTexts> = {};
  for (const row of await ctx.stores.uiSettings.list(tenantId, 'custom_text')) {
    const [prompt, lang] = row.key.split('/');
    if (lang === language && prompt !== undefined) out[prompt] = row.value as CustomTexts;
  }
  return out;
}
