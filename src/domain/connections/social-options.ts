/**
 * The options of social connections (`google-oauth2`, `github`, `apple`,
 * `windowslive`, `facebook`, `linkedin`), as the service stores and returns
 * them (federation wire notes §1.3, §1.4): the credentials, per-provider
 * boolean flags each asking for scopes, `freeform_scopes`, and the members
 * every social strategy takes (`set_user_root_attributes`,
 * `upstream_params`, `non_persistent_attrs`). Unknown members are kept, as
 * the service's schemas allow. On create and update the service computes
 * `scope` from the flags; so does `prepareSocialOptions`, in the shape each
 * provider's recordings show (an array, Apple's space-separated string,
 * Facebook's comma-separated one).
 */
import type { OptionsProblem } from './strategies/strategy.js';

/** How the computed `scope` is written: an array, or one string joined by a space (Apple) or a comma (Facebook). */
export type ScopeShape = 'array' | ' ' | ',';

export interface SocialOptionRules {
  /** Bounds of the credential members; `client_secret` unless the strategy names another (Apple's `app_secret`). */
  readonly credentials: Readonly<Record<string, number>>;
  /** Boolean flag → the scopes it asks for (none: a flag such as GitHub's `profile` that adds nothing). */
  readonly flags: Readonly<Record<string, readonly string[]>>;
  /** Flags on unless the options say otherwise (GitHub's `profile`, Facebook's `public_profile`). */
  readonly defaultFlags?: readonly string[];
  readonly scopeShape: ScopeShape;
  /** Lists of strings the strategy takes, with their bounds (Google's `allowed_audiences`: 1 to 64 client ids). */
  readonly lists?: Readonly<Record<string, { min: number; max: number; each: number }>>;
}

const SYNC = ['on_each_login', 'on_first_login', 'never_on_login'];
const ALIASES = ['acr_values', 'audience', 'client_id', 'display', 'id_token_hint', 'login_hint', 'max_age', 'prompt', 'resource', 'response_mode', 'response_type', 'ui_locales'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringList = (v: unknown, most: number, each: number) => Array.isArray(v) && v.length <= most && v.every((s) => typeof s === 'string' && s.length > 0 && s.length <= each);

/** `upstream_params`: `{param: {value}}` or `{param: {alias: one of the /authorize parameters}}` (wire notes §1.5). */
function upstreamParamsProblem(params: unknown): string | undefined {
  if (params === null) return undefined;
  if (!isRecord(params) || Object.keys(params).length > 30) return 'must be an object of at most 30 parameters';
  for (const [name, spec] of Object.entries(params)) {
    const entry: Record<string, unknown> = isRecord(spec) ? spec : {};
    const keys = Object.keys(entry);
    const fine = keys.length === 1 && ((typeof entry.value === 'string' && entry.value.length <= 255) || ALIASES.includes(entry.alias as string));
    if (!fine) return `${name} must be {"value": a string} or {"alias": one of ${ALIASES.join(', ')}}`;
  }
  return undefined;
}

/** What is wrong with a social connection's options; undefined when nothing is. */
export function socialOptionsProblem(rules: SocialOptionRules, options: Record<string, unknown>): OptionsProblem | undefined {
  const at = (key: string, message: string): OptionsProblem => ({ property: `options.${key}`, message });
  for (const [key, value] of Object.entries(options)) {
    const most = rules.credentials[key];
    if (most !== undefined) {
      if (typeof value !== 'string' || value.length > most) return at(key, `must be a string of at most ${most} characters`);
    } else if (key in rules.flags) {
      if (typeof value !== 'boolean') return at(key, 'must be a boolean');
    } else if (rules.lists?.[key] !== undefined) {
      const { min, max, each } = rules.lists[key];
      if (!stringList(value, max, each) || (value as unknown[]).length < min) return at(key, `must be a list of ${min} to ${max} strings of at most ${each} characters`);
    } else if (key === 'freeform_scopes') {
      if (!stringList(value, 100, 255)) return at(key, 'must be a list of at most 100 scopes');
    } else if (key === 'set_user_root_attributes') {
      if (!SYNC.includes(value as string)) return at(key, `must be one of ${SYNC.join(', ')}`);
    } else if (key === 'non_persistent_attrs') {
      if (!stringList(value, 96, 255)) return at(key, 'must be a list of at most 96 attribute names');
    } else if (key === 'upstream_params') {
      const problem = upstreamParamsProblem(value);
      if (problem) return at(key, problem);
    } else if (key === 'icon_url') {
      if (typeof value !== 'string' || !/^https:\/\//.test(value) || value.length > 255 || !URL.canParse(value)) return at(key, 'must be an https URL of at most 255 characters');
    }
  }
  return undefined;
}

/** The scopes the options' flags and `freeform_scopes` ask for, each once, in the flags' order. */
export function flaggedScopes(rules: SocialOptionRules, options: Readonly<Record<string, unknown>>): string[] {
  const scopes = new Set<string>();
  for (const [flag, asks] of Object.entries(rules.flags)) {
    const on = options[flag] ?? rules.defaultFlags?.includes(flag) ?? false;
    if (on === true) for (const scope of asks) scopes.add(scope);
  }
  if (Array.isArray(options.freeform_scopes)) for (const scope of options.freeform_scopes) scopes.add(String(scope));
  return [...scopes];
}

/** The options as stored: `scope` computed from the flags, in the provider's shape. */
export function prepareSocialOptions(rules: SocialOptionRules, options: Record<string, unknown>): Record<string, unknown> {
  const scopes = flaggedScopes(rules, options);
  return { ...options, scope: rules.scopeShape === 'array' ? scopes : scopes.join(rules.scopeShape) };
}

/** `set_user_root_attributes`, `on_each_login` unless set. */
export function rootAttributesSync(options: Readonly<Record<string, unknown>>): 'on_each_login' | 'on_first_login' | 'never_on_login' {
  const sync = options.set_user_root_attributes;
  return sync === 'on_first_login' || sync === 'never_on_login' ? sync : 'on_each_login';
}
