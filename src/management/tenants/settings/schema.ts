/**
 * Schemas of /api/v2/tenants/settings: the service's request schema
 * (`UpdateTenantSettingsRequestContent`, extracted with every $ref resolved
 * into oas-schemas.generated.json by scripts/extract-oas-schemas.mjs), closed
 * as the document closes it (an unknown member is refused), with the bounds
 * the document leaves out (STYLE: every input bounded before storage):
 *
 * - strings: custom page HTML at most PAGE_HTML_MAX chars, `default_audience`
 *   600 (a resource server identifier's limit), `default_directory` 128 (a
 *   connection name's), other strings 2048;
 * - lists at most 100 items (the locales at most as many as there are), maps
 *   at most 30 members;
 * - lifetimes in hours at most a year (8760), in minutes the same year.
 *
 * The response is the same schema made to serialise what was stored (no
 * `required`, no `default`, the `_in_minutes` members left out: they are
 * stored as fractional hours, as GET answers them) plus the document's
 * read-only `sandbox_versions_available`; its members are exactly those of
 * `GetTenantSettingsResponseContent`, which PATCH answers with too.
 */
import { Type } from '@sinclair/typebox';
import oas from './oas-schemas.generated.json' with { type: 'json' };
import type { SchemaNode } from '../../json-schema.js';

type Node = SchemaNode;

// Imported (not read from disk) so that the build copies it into dist/ with the code.
const generated = oas as unknown as { schemas: Record<string, Node> };

export const PAGE_HTML_MAX = 102_400;
const STRING_MAX = 2048;
const LIST_MAX = 100;
const MAP_MAX = 30;
const HOURS_MAX = 8760;
const STRING_LIMITS: Record<string, number> = { html: PAGE_HTML_MAX, default_audience: 600, default_directory: 128 };

/** The settings given in hours or in minutes: each pair may not be given together. */
export const LIFETIME_PAIRS = [
  ['session_lifetime', 'session_lifetime_in_minutes'],
  ['idle_session_lifetime', 'idle_session_lifetime_in_minutes'],
  ['ephemeral_session_lifetime', 'ephemeral_session_lifetime_in_minutes'],
  ['idle_ephemeral_session_lifetime', 'idle_ephemeral_session_lifetime_in_minutes'],
] as const;

const typesOf = (node: Node): string[] => (node.type === undefined ? [] : [node.type].flat());

/** Adds the bounds of the file comment to every node below `node`, `key` naming the member it is. */
function bound(node: Node, key: string): void {
  const types = typesOf(node);
  if (types.includes('string') && node.maxLength === undefined && !node.enum) node.maxLength = STRING_LIMITS[key] ?? STRING_MAX;
  if (types.includes('array') && node.maxItems === undefined) node.maxItems = node.items?.enum ? node.items.enum.length : LIST_MAX;
  if (types.includes('object') && typeof node.additionalProperties === 'object' && node.maxProperties === undefined) node.maxProperties = MAP_MAX;
  if (types.includes('integer') && node.maximum === undefined) node.maximum = key.endsWith('_in_minutes') ? HOURS_MAX * 60 : key.endsWith('lifetime') ? HOURS_MAX : 2 ** 31 - 1;
  for (const [name, member] of Object.entries(node.properties ?? {})) bound(member, name);
  if (node.items) bound(node.items, key);
  if (typeof node.additionalProperties === 'object') bound(node.additionalProperties, key);
}

const updateBody: Node = (() => {
  const schema = structuredClone(generated.schemas.UpdateTenantSettingsRequestContent!);
  bound(schema, '');
  schema.additionalProperties = false;
  return schema;
})();

const response: Node = (() => {
  const schema = structuredClone(updateBody);
  const strip = (node: Node) => {
    delete node.required;
    delete node.default;
    for (const member of Object.values(node.properties ?? {})) strip(member);
    if (node.items) strip(node.items);
    if (typeof node.additionalProperties === 'object') strip(node.additionalProperties);
  };
  strip(schema);
  const p = schema.properties!;
  for (const [hours, minutes] of LIFETIME_PAIRS) {
    delete p[minutes];
    p[hours] = { ...p[hours], type: 'number' };
  }
  p.sandbox_versions_available = { type: 'array', description: 'Available sandbox versions for the extensibility environment.', items: { type: 'string' } };
  // The order of GetTenantSettingsResponseContent.
  const order = Object.keys(generated.schemas.GetTenantSettingsResponseContent!.properties!);
  schema.properties = Object.fromEntries(order.filter((key) => key in p).map((key) => [key, p[key]!]));
  return schema;
})();

/** The members a PATCH may carry (checked by the schema, not by TypeScript). */
export type TenantSettingsBody = Record<string, unknown>;
export type TenantSettingsView = Record<string, unknown>;

export const UpdateTenantSettingsBody = Type.Unsafe<TenantSettingsBody>(updateBody);
export const TenantSettingsResponse = Type.Unsafe<TenantSettingsView>(response);

/** The members of the response, in the order they are written. */
export const TENANT_SETTINGS_FIELDS: readonly string[] = Object.keys(response.properties!);

/** The description of a member, for the messages the service builds itself. */
export function describeSetting(key: string): string | undefined {
  return updateBody.properties?.[key]?.description as string | undefined;
}

export const TenantSettingsQuery = Type.Object(
  {
    fields: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'Comma-separated list of fields to include or exclude (based on value provided for include_fields) in the result. Leave empty to retrieve all fields.',
      }),
    ),
    include_fields: Type.Optional(Type.Boolean({ description: 'Whether specified fields are to be included (true) or excluded (false).' })),
  },
  { additionalProperties: false },
);
