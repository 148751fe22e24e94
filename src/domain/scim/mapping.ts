/**
 * The mapping between SCIM attributes (RFC 7643 §4.1) and the user profile:
 * the service's default, the check of an edited one, and reading a SCIM
 * attribute path (`userName`, `name.givenName`, `emails[primary eq true].value`,
 * an extension's `urn:…:User:department`) out of a resource, the value
 * filter evaluated by scim2-parse-filter.
 */
import type { JsonObject } from '../json.js';
import type { ScimMappingItem } from './rows.js';

export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const CORE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const CORE_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/**
 * The default mapping, after the service's: the SCIM core and enterprise
 * attributes onto the profile's root attributes where the profile has one,
 * else into `app_metadata`. Gatehouse keeps `userName` in the user's
 * `username` (unique per connection, as `userName` must be).
 */
export const DEFAULT_SCIM_MAPPING: readonly ScimMappingItem[] = [
  { auth0: 'username', scim: 'userName' },
  { auth0: 'email', scim: 'emails[primary eq true].value' },
  { auth0: 'app_metadata.external_id', scim: 'externalId' },
  { auth0: 'blocked', scim: 'active' },
  { auth0: 'name', scim: 'displayName' },
  { auth0: 'given_name', scim: 'name.givenName' },
  { auth0: 'family_name', scim: 'name.familyName' },
  { auth0: 'app_metadata.middle_name', scim: 'name.middleName' },
  { auth0: 'app_metadata.honorific_prefix', scim: 'name.honorificPrefix' },
  { auth0: 'app_metadata.honorific_suffix', scim: 'name.honorificSuffix' },
  { auth0: 'nickname', scim: 'nickName' },
  { auth0: 'picture', scim: 'photos[type eq "photo"].value' },
  { auth0: 'app_metadata.primary_phone_number', scim: 'phoneNumbers[primary eq true].value' },
  { auth0: 'app_metadata.mobile_phone_number', scim: 'phoneNumbers[type eq "mobile"].value' },
  { auth0: 'app_metadata.street_address', scim: 'addresses[type eq "work"].streetAddress' },
  { auth0: 'app_metadata.city', scim: 'addresses[type eq "work"].locality' },
  { auth0: 'app_metadata.state', scim: 'addresses[type eq "work"].region' },
  { auth0: 'app_metadata.postal_code', scim: 'addresses[type eq "work"].postalCode' },
  { auth0: 'app_metadata.postal_address', scim: 'addresses[type eq "work"].formatted' },
  { auth0: 'app_metadata.country', scim: 'addresses[type eq "work"].country' },
  { auth0: 'app_metadata.profile_url', scim: 'profileUrl' },
  { auth0: 'app_metadata.user_type', scim: 'userType' },
  { auth0: 'app_metadata.title', scim: 'title' },
  { auth0: 'app_metadata.language', scim: 'preferredLanguage' },
  { auth0: 'app_metadata.locale', scim: 'locale' },
  { auth0: 'app_metadata.timezone', scim: 'timezone' },
  { auth0: 'app_metadata.employee_id', scim: `${ENTERPRISE_USER_SCHEMA}:employeeNumber` },
  { auth0: 'app_metadata.cost_center', scim: `${ENTERPRISE_USER_SCHEMA}:costCenter` },
  { auth0: 'app_metadata.organization', scim: `${ENTERPRISE_USER_SCHEMA}:organization` },
  { auth0: 'app_metadata.division', scim: `${ENTERPRISE_USER_SCHEMA}:division` },
  { auth0: 'app_metadata.department', scim: `${ENTERPRISE_USER_SCHEMA}:department` },
  { auth0: 'app_metadata.manager', scim: `${ENTERPRISE_USER_SCHEMA}:manager.value` },
];

/** The profile's root attributes a mapping may write (`blocked` is `active` negated). */
export const PROFILE_TARGETS = ['email', 'name', 'given_name', 'family_name', 'nickname', 'picture', 'phone_number', 'username', 'blocked'] as const;
export type ProfileTarget = (typeof PROFILE_TARGETS)[number];

const METADATA_TARGET = /^(app_metadata|user_metadata)\.([A-Za-z0-9_-]{1,64})$/;
/** `urn:…:` schema prefix (optional), attribute, optional `[filter]`, optional `.sub-attribute` (RFC 7644 §3.10). */
const SCIM_PATH = /^(?:(urn:[A-Za-z0-9:._-]+):)?([A-Za-z][\w$-]*)(?:\[([^\]]{1,200})\])?(?:\.([A-Za-z][\w$-]*))?$/;

export const MAX_MAPPING_ITEMS = 100;

export interface ParsedScimPath {
  schema?: string;
  attribute: string;
  filter?: string;
  sub?: string;
}

export function parseScimPath(path: string): ParsedScimPath | undefined {
  if (path.length > 300) return undefined;
  const match = SCIM_PATH.exec(path);
  if (!match) return undefined;
  const [, schema, attribute, filter, sub] = match;
  // `urn:…:User:name.givenName`: the attribute is the last segment of the URN-prefixed path.
  return { ...(schema !== undefined && { schema }), attribute: attribute!, ...(filter !== undefined && { filter }), ...(sub !== undefined && { sub }) };
}

/** What is wrong with a mapping (the Management API's 400 "Invalid mapping provided"), or undefined. */
export function mappingProblem(mapping: readonly ScimMappingItem[], userIdAttribute: string): string | undefined {
  if (mapping.length > MAX_MAPPING_ITEMS) return `at most ${MAX_MAPPING_ITEMS} mapping items`;
  const targets = new Set<string>();
  for (const item of mapping) {
    if (typeof item.auth0 !== 'string' || typeof item.scim !== 'string') return 'each mapping item has an auth0 and a scim attribute';
    if (!(PROFILE_TARGETS as readonly string[]).includes(item.auth0) && !METADATA_TARGET.test(item.auth0)) return `unknown profile attribute ${item.auth0}`;
    if (!parseScimPath(item.scim)) return `invalid SCIM attribute path ${item.scim}`;
    if (targets.has(item.auth0)) return `${item.auth0} is mapped twice`;
    targets.add(item.auth0);
  }
  if (!parseScimPath(userIdAttribute) || userIdAttribute.includes('[')) return `invalid user_id_attribute ${userIdAttribute}`;
  return undefined;
}

/** The member of `object` named `name`, case-insensitively (RFC 7643 §2.1: attribute names are). */
export function member(object: unknown, name: string): unknown {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const record = object as JsonObject;
  if (Object.hasOwn(record, name)) return record[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(record)) if (key.toLowerCase() === lower) return record[key];
  return undefined;
}

/** Tests a value filter (`type eq "work"`) on a multi-valued attribute's element. */
export type ElementFilter = (filter: string) => (element: unknown) => boolean;

/** The value at `path` in a SCIM resource (the first element a filter matches), or undefined. */
export function readScimPath(resource: JsonObject, path: string, elementFilter: ElementFilter): unknown {
  const parsed = parseScimPath(path);
  if (!parsed) return undefined;
  let base: unknown = resource;
  if (parsed.schema !== undefined && parsed.schema.toLowerCase() !== CORE_USER_SCHEMA.toLowerCase()) base = member(resource, parsed.schema);
  let value = member(base, parsed.attribute);
  if (parsed.filter !== undefined) {
    if (!Array.isArray(value)) return undefined;
    value = value.find(elementFilter(parsed.filter));
  }
  if (parsed.sub !== undefined) value = member(value, parsed.sub);
  return value;
}

/** `true`/`false`, also as Entra ID sends them (`"False"`, RFC 7643 §2.3.2 notwithstanding). */
export function scimBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return undefined;
}

/** What a resource sets on the profile through the mapping. */
export interface MappedProfile {
  root: Partial<Record<Exclude<ProfileTarget, 'blocked'>, string | null>>;
  blocked?: boolean;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  /** Metadata members the mapping writes that the resource has no value for: removed from the user's. */
  unset: { app_metadata: string[]; user_metadata: string[] };
}

const MAX_VALUE_LENGTH = 512;

/** The profile the mapping makes of a resource; a value it cannot take is named by `invalid`. */
export function mappedProfile(resource: JsonObject, mapping: readonly ScimMappingItem[], elementFilter: ElementFilter): MappedProfile | { invalid: string } {
  const profile: MappedProfile = { root: {}, app_metadata: {}, user_metadata: {}, unset: { app_metadata: [], user_metadata: [] } };
  for (const item of mapping) {
    const value = readScimPath(resource, item.scim, elementFilter);
    if (item.auth0 === 'blocked') {
      if (value === undefined) continue;
      const active = scimBoolean(value);
      if (active === undefined) return { invalid: item.scim };
      profile.blocked = !active;
      continue;
    }
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : value === undefined || value === null ? null : undefined;
    if (text === undefined || (text !== null && text.length > MAX_VALUE_LENGTH)) return { invalid: item.scim };
    const metadata = METADATA_TARGET.exec(item.auth0);
    if (metadata) {
      const kind = metadata[1] as 'app_metadata' | 'user_metadata';
      if (text !== null) profile[kind][metadata[2]!] = text;
      else profile.unset[kind].push(metadata[2]!);
    } else {
      profile.root[item.auth0 as Exclude<ProfileTarget, 'blocked'>] = text;
    }
  }
  if (profile.root.email !== undefined && profile.root.email !== null && !/^[^\s@]+@[^\s@]+$/.test(profile.root.email)) return { invalid: 'emails' };
  return profile;
}
