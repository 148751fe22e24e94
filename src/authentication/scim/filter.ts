/**
 * The `filter` of GET /Users (RFC 7644 §3.4.2.2), parsed by
 * scim2-parse-filter. Gatehouse answers a filter from an index: it must
 * contain, alone or under `and`, `userName eq`, `externalId eq` or an
 * emails value `eq` (`emails[type eq "work"].value eq "…"`, as Entra ID and
 * Okta send it, or `emails.value eq`); that picks at most MAX_CANDIDATES
 * users, which the whole filter is then tested on. Any other filter is 400
 * `invalidFilter`, never a scan of the connection's users.
 */
import type { ScimUserLookup } from '../../domain/scim/store.js';
import { scimErrors } from './errors.js';

type FilterModule = typeof import('scim2-parse-filter');
type Filter = ReturnType<FilterModule['parse']>;

/** The most users one indexed lookup may yield before the whole filter is tested (userName, externalId and email are unique or nearly). */
export const MAX_CANDIDATES = 200;
const MAX_FILTER_LENGTH = 1000;

let filters: Promise<FilterModule> | undefined;
/** The parser, loaded on the first SCIM request that needs one (docs/architecture.md: packages only some requests need). */
export const filterModule = (): Promise<FilterModule> => (filters ??= import('scim2-parse-filter'));

export interface ParsedFilter<L = ScimUserLookup> {
  lookup: L;
  /** The whole filter, tested on a candidate's representation. */
  matches: (resource: unknown) => boolean;
}

function lookupOf(filter: Filter): ScimUserLookup | undefined {
  switch (filter.op) {
    case 'eq': {
      if (typeof filter.compValue !== 'string') return undefined;
      const path = filter.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:user:/, '');
      if (path === 'username') return { by: 'user_name', value: filter.compValue };
      if (path === 'externalid') return { by: 'external_id', value: filter.compValue };
      if (path === 'emails.value' || path === 'emails') return { by: 'email', value: filter.compValue };
      return undefined;
    }
    case 'and':
      for (const part of filter.filters) {
        const found = lookupOf(part);
        if (found) return found;
      }
      return undefined;
    case '[]':
      return filter.attrPath.toLowerCase() === 'emails' ? valueOf(filter.valFilter) : undefined;
    default:
      return undefined;
  }
}

/** `value eq "…"` inside `emails[…]`. */
function valueOf(filter: Filter): ScimUserLookup | undefined {
  if (filter.op === 'eq' && filter.attrPath.toLowerCase() === 'value' && typeof filter.compValue === 'string') return { by: 'email', value: filter.compValue };
  if (filter.op === 'and') for (const part of filter.filters) if (valueOf(part)) return valueOf(part);
  return undefined;
}

export function parseUserFilter(text: string): Promise<ParsedFilter> {
  return parseIndexedFilter(text, lookupOf, 'Gatehouse answers filters with userName eq, externalId eq or emails value eq (alone or under and)');
}

/** The group filters answered from an index: `displayName eq`, `externalId eq` or `id eq`, alone or under `and`. */
export type ScimGroupLookup = { by: 'display_name' | 'external_id' | 'id'; value: string };

function groupLookupOf(filter: Filter): ScimGroupLookup | undefined {
  if (filter.op === 'eq' && typeof filter.compValue === 'string') {
    const path = filter.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:group:/, '');
    if (path === 'displayname') return { by: 'display_name', value: filter.compValue };
    if (path === 'externalid') return { by: 'external_id', value: filter.compValue };
    if (path === 'id') return { by: 'id', value: filter.compValue };
  }
  if (filter.op === 'and') for (const part of filter.filters) if (groupLookupOf(part)) return groupLookupOf(part);
  return undefined;
}

export function parseGroupFilter(text: string): Promise<ParsedFilter<ScimGroupLookup>> {
  return parseIndexedFilter(text, groupLookupOf, 'Gatehouse answers group filters with displayName eq, externalId eq or id eq (alone or under and)');
}

/** `text` parsed; its indexed lookup found by `lookupOf`, else 400 invalidFilter with `refusal`. */
async function parseIndexedFilter<L>(text: string, lookupOf: (filter: Filter) => L | undefined, refusal: string): Promise<ParsedFilter<L>> {
  if (text.length > MAX_FILTER_LENGTH) throw scimErrors.invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  const { parse, filter } = await filterModule();
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    throw scimErrors.invalidFilter('The filter is not a valid SCIM filter expression');
  }
  const lookup = lookupOf(parsed);
  if (!lookup) throw scimErrors.invalidFilter(refusal);
  // A lone comparison is answered by the lookup itself (case-insensitive for userName and emails, as RFC 7643 §4.1 makes them;
  // a group's displayName is compared as stored, the names of a connection's groups being unique as they are).
  if (parsed.op === 'eq') return { lookup, matches: () => true };
  // Otherwise the whole filter is tested on the candidates, strings compared without case (userName, emails and type are caseExact false).
  const test = filter(lowerCased(parsed) as Filter);
  return { lookup, matches: (resource) => test(lowerCased(resource)) };
}

function lowerCased(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowerCased);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, key === 'attrPath' || key === 'op' ? member : lowerCased(member)]));
  return value;
}

/**
 * The member ids a PATCH path `members[value eq "…"]` names (RFC 7644
 * §3.5.2.2, as Okta sends a removal; `or` of such comparisons too), parsed by
 * scim2-parse-filter; undefined for any other path.
 */
export async function memberPathValues(path: string): Promise<string[] | undefined> {
  if (path.length > MAX_FILTER_LENGTH) return undefined;
  const { parse } = await filterModule();
  let parsed: Filter;
  try {
    parsed = parse(path);
  } catch {
    return undefined;
  }
  if (parsed.op !== '[]' || parsed.attrPath.toLowerCase() !== 'members') return undefined;
  const values: string[] = [];
  const collect = (part: Filter): boolean => {
    if (part.op === 'eq' && part.attrPath.toLowerCase() === 'value' && typeof part.compValue === 'string') {
      values.push(part.compValue);
      return true;
    }
    return part.op === 'or' && part.filters.every(collect);
  };
  return collect(parsed.valFilter) ? values : undefined;
}
