/**
 * The texts of the hosted pages: the built-in catalogue of every screen in
 * English, French, German and Spanish (./texts/), the tenant's custom texts
 * over it (PUT /api/v2/prompts/{prompt}/custom-text/{language}), and the
 * choice of a page's language.
 *
 * A text may hold variables, `${clientName}`; the page fills them in (escaped).
 * Custom texts are checked against the catalogue: a prompt, screen or key
 * Gatehouse does not render is refused, as is a text longer than
 * MAX_CUSTOM_TEXT characters.
 */
import { de } from './texts/de.js';
import { en } from './texts/en.js';
import { es } from './texts/es.js';
import { fr } from './texts/fr.js';

import type { Catalog } from './texts/catalog.js';

export type { Catalog };
export type PromptName = keyof Catalog;
export type ScreenName<P extends PromptName> = keyof Catalog[P] & string;
export type TextKey<P extends PromptName, S extends ScreenName<P>> = keyof Catalog[P][S] & string;

/** The languages Gatehouse has texts in; the first is the default. */
export const LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, fr, de, es };

export const PROMPT_NAMES = Object.keys(en) as PromptName[];

/** The longest custom text: a paragraph. */
export const MAX_CUSTOM_TEXT = 2000;

/** A prompt's custom texts in one language: screen → key → text. */
export type CustomTexts = Record<string, Record<string, string>>;

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

export function isPromptName(value: string): value is PromptName {
  return Object.hasOwn(en, value);
}

/** Why `body` is not a set of custom texts for `prompt`, or undefined. */
export function customTextProblem(prompt: PromptName, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be an object of screens';
  const screens = en[prompt] as Record<string, Record<string, string>>;
  for (const [screen, texts] of Object.entries(body as Record<string, unknown>)) {
    if (!Object.hasOwn(screens, screen)) return `unknown screen '${screen}' for prompt '${prompt}' (known: ${Object.keys(screens).join(', ')})`;
    if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return `screen '${screen}' must be an object of texts`;
    for (const [key, text] of Object.entries(texts as Record<string, unknown>)) {
      if (!Object.hasOwn(screens[screen]!, key)) return `unknown key '${key}' for screen '${screen}'`;
      if (typeof text !== 'string') return `text '${screen}.${key}' must be a string`;
      if (text.length > MAX_CUSTOM_TEXT) return `text '${screen}.${key}' is longer than ${MAX_CUSTOM_TEXT} characters`;
    }
  }
  return undefined;
}

/**
 * The page's language: the first of `ui_locales` (space-separated, OIDC Core
 * §3.1.2.1), then of `Accept-Language` (by quality), that the tenant enables;
 * else the tenant's first enabled language. A regional tag (`fr-CA`) matches
 * its language.
 */
export function chooseLanguage(enabled: readonly Language[], uiLocales: string | undefined, acceptLanguage: string | undefined): Language {
  const pick = (tag: string): Language | undefined => {
    const base = tag.trim().toLowerCase().split('-')[0] ?? '';
    return enabled.find((language) => language === base);
  };
  for (const tag of (uiLocales ?? '').split(' ').slice(0, 20)) {
    const found = pick(tag);
    if (found) return found;
  }
  const ranked = (acceptLanguage ?? '')
    .slice(0, 1000)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = pick(tag);
    if (found) return found;
  }
  return enabled[0] ?? 'en';
}

/** The tenant's enabled languages (`settings.enabled_locales`), kept to those Gatehouse has; all four when unset or none known. */
export function enabledLanguages(enabledLocales: unknown): Language[] {
  if (!Array.isArray(enabledLocales)) return [...LANGUAGES];
  const known = enabledLocales.filter((l): l is Language => typeof l === 'string' && isLanguage(l));
  return known.length > 0 ? [...new Set(known)] : [...LANGUAGES];
}
