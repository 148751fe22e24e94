/**
 * `attribute_map` of OpenID Connect connections (`oidc`, `okta`): how the
 * provider's claims become the user's profile (federation wire notes §1.4,
 * §2.4, §3.3).
 *
 * - `bind_all` (the `oidc` default) and `basic_profile` (the `okta`
 *   default): the profile members (`email`, `email_verified`, `name`,
 *   `given_name`, `family_name`, `nickname`, `picture`) are read from the
 *   id_token's claims of the same names.
 * - `use_map`: only the members `attributes` maps, each a string of
 *   literals and references `${context.tokenset.<claim>}` (the id_token's
 *   claims), `${context.userinfo.<claim>}` (the provider's userinfo
 *   answer), `${context.connection.id}`, `${context.connection.strategy}`.
 *   A string that is one reference only keeps the claim's type (a boolean
 *   `email_verified`); otherwise the references are written into the
 *   string. A claim path may go into objects (`address.country`), own
 *   members only. These are references, not a template language: there are
 *   no expressions or filters, and a string holding anything else between
 *   `${` and `}` is refused when the connection is saved.
 *
 * The provider's userinfo endpoint is called (with the access token of the
 * code flow, so `back_channel` only, and `userinfo_scope` added to the
 * scopes asked) only when a `use_map` attribute refers to
 * `context.userinfo`, as the service does.
 */

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type MappingMode = 'bind_all' | 'use_map' | 'basic_profile';

export interface AttributeMap {
  mode: MappingMode;
  /** Profile member → its template (`use_map`). */
  attributes: Readonly<Record<string, string>>;
  /** Scopes asked of the provider for its userinfo answer (space-separated). */
  userinfoScope: string | undefined;
}

/** What the references of a `use_map` template may read. */
export interface MappingContext {
  tokenset: Readonly<Record<string, unknown>>;
  userinfo: Readonly<Record<string, unknown>> | undefined;
  connection: { id: string; strategy: string };
}

const MAX_ATTRIBUTES = 100;
const MAX_TEMPLATE = 1024;
const MAX_DEPTH = 5;
const REFERENCE = /\$\{([^}]*)\}/g;
const VALID_REFERENCE = /^context\.(?:(tokenset|userinfo)\.([A-Za-z0-9_:-]{1,128}(?:\.[A-Za-z0-9_:-]{1,128}){0,4})|connection\.(id|strategy))$/;
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Names of an object's own machinery, never attributes. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** What is wrong with an `attribute_map` of the given modes; undefined when nothing is. */
export function attributeMapProblem(value: unknown, modes: readonly MappingMode[]): string | undefined {
  if (!isObject(value)) return 'must be an object';
  const mode = value.mapping_mode;
  if (mode !== undefined && !(modes as readonly unknown[]).includes(mode)) return `mapping_mode must be one of ${modes.join(', ')}`;
  if (value.userinfo_scope !== undefined && (typeof value.userinfo_scope !== 'string' || value.userinfo_scope.length > 255)) return 'userinfo_scope must be a string of at most 255 characters';
  const attributes = value.attributes;
  if (attributes === undefined) return mode === 'use_map' ? 'attributes is required with mapping_mode use_map' : undefined;
  if (!isObject(attributes) || Object.keys(attributes).length > MAX_ATTRIBUTES) return `attributes must be an object of at most ${MAX_ATTRIBUTES} members`;
  for (const [name, template] of Object.entries(attributes)) {
    if (!ATTRIBUTE_NAME.test(name) || RESERVED_NAMES.has(name)) return `attributes: "${name.slice(0, 64)}" is not an attribute name`;
    if (typeof template !== 'string' || template.length > MAX_TEMPLATE) return `attributes.${name} must be a string of at most ${MAX_TEMPLATE} characters`;
    for (const [, reference] of template.matchAll(REFERENCE)) {
      if (!VALID_REFERENCE.test(reference!)) return `attributes.${name}: \${${reference!.slice(0, 64)}} is not one of \${context.tokenset.<claim>}, \${context.userinfo.<claim>}, \${context.connection.id}, \${context.connection.strategy}`;
    }
  }
  return undefined;
}

/** The map of checked options; `fallback` when the options name no mode. */
export function attributeMapOf(value: unknown, fallback: MappingMode): AttributeMap {
  const map = isObject(value) ? value : {};
  const mode = map.mapping_mode === 'use_map' || map.mapping_mode === 'bind_all' || map.mapping_mode === 'basic_profile' ? map.mapping_mode : fallback;
  const attributes = isObject(map.attributes) ? (Object.fromEntries(Object.entries(map.attributes).filter((e): e is [string, string] => typeof e[1] === 'string')) as Record<string, string>) : {};
  return { mode, attributes, userinfoScope: typeof map.userinfo_scope === 'string' && map.userinfo_scope !== '' ? map.userinfo_scope : undefined };
}

/** Whether the map needs the provider's userinfo answer: a `use_map` attribute refers to `context.userinfo`. */
export function needsUserinfo(map: AttributeMap): boolean {
  return map.mode === 'use_map' && Object.values(map.attributes).some((template) => [...template.matchAll(REFERENCE)].some(([, reference]) => reference!.startsWith('context.userinfo.')));
}

/** The value at a dotted path of own members, undefined where there is none. */
function at(source: Readonly<Record<string, unknown>> | undefined, path: string): unknown {
  let value: unknown = source;
  for (const [depth, name] of path.split('.').entries()) {
    if (depth >= MAX_DEPTH || !isObject(value) || !Object.hasOwn(value, name)) return undefined;
    value = value[name];
  }
  return value;
}

function resolve(reference: string, context: MappingContext): unknown {
  const match = VALID_REFERENCE.exec(reference);
  if (!match) return undefined;
  const [, source, path, member] = match;
  if (member !== undefined) return context.connection[member as 'id' | 'strategy'];
  return at(source === 'tokenset' ? context.tokenset : context.userinfo, path!);
}

/**
 * The attributes of a `use_map` map, its templates filled from the context:
 * a template that is one reference keeps the value's type (absent when the
 * claim is); references within text are written as text (an absent claim as
 * nothing).
 */
export function mappedAttributes(map: AttributeMap, context: MappingContext): Record<string, unknown> {
  // No prototype: a name from the tenant's map is only ever an own member (a stored map from before the
  // names were checked included).
  const mapped: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, template] of Object.entries(map.attributes)) {
    if (RESERVED_NAMES.has(name)) continue;
    const whole = /^\$\{([^}]*)\}$/.exec(template);
    if (whole) {
      const value = resolve(whole[1]!, context);
      if (value !== undefined && value !== null) mapped[name] = value;
      continue;
    }
    mapped[name] = template.replace(REFERENCE, (_all, reference: string) => {
      const value = resolve(reference, context);
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    });
  }
  return mapped;
}
