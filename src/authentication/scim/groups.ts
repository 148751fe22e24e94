/**
 * /Groups of a connection's SCIM endpoint (RFC 7643 §4.2, RFC 7644 §3): each
 * SCIM group is a connection group of Gatehouse (`groups` with the
 * connection's id, the Management API's `/groups/{id}`), its `displayName`
 * the group's name (unique in the connection), its `members` users the same
 * connection provisioned. What a group gets through the Management API (its
 * roles, `/groups/{id}/roles`, and in an organization
 * `/organizations/{id}/groups/{group_id}/roles`) its members then hold.
 *
 * PATCH takes the request shapes of Okta (`members[value eq "…"]` removals,
 * a path-less `replace` of `displayName`) and Entra ID (`Add`/`Remove` on
 * `members` with a value list, `Replace` of `displayName`); members are
 * added and removed one by one, never by loading the whole group.
 */
import { newGroupId, type GroupRow } from '../../domain/groups/model.js';
import type { GroupStore } from '../../domain/groups/store.js';
import type { JsonObject } from '../../domain/json.js';
import type { GroupMemberStore } from '../../domain/rbac/store.js';
import type { ScimStore } from '../../domain/scim/store.js';
import { CORE_GROUP_SCHEMA } from '../../domain/scim/mapping.js';
import type { UnitOfWork } from '../../domain/stores.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { scimErrors } from './errors.js';
import { MAX_CANDIDATES, memberPathValues, parseGroupFilter } from './filter.js';
import { listResponse, MAX_COUNT } from './resources.js';
import { checkedPatchOperations, integer, isObject, type PatchOperation } from './patch.js';
import type { ScimTarget } from './users.js';

/** The most members a group's representation lists, and the most one request may add or remove. */
export const MAX_MEMBERS = 1000;
const MAX_NAME_LENGTH = 128;
const MAX_EXTERNAL_ID_LENGTH = 256;
const CONTROL = /[\u0000-\u001f\u007f]/;

type Stores = { readonly groups: GroupStore; readonly rbac: GroupMemberStore; readonly scim: Pick<ScimStore, 'getUser'> };

export interface ScimGroupsContext {
  readonly now: () => number;
  readonly stores: Stores;
  readonly unitOfWork: UnitOfWork<Stores>;
}

/** Which attributes a read asks for (RFC 7644 §3.9): members only when not excluded. */
export interface Projection {
  members: boolean;
}

export function projectionOf(query: { attributes?: string; excludedAttributes?: string }): Projection {
  const names = (list: string | undefined) => (list ?? '').split(',').map((name) => name.trim().toLowerCase());
  if (names(query.excludedAttributes).includes('members')) return { members: false };
  if (query.attributes !== undefined && !names(query.attributes).includes('members')) return { members: false };
  return { members: true };
}

/** What a create, a replace or a patch asks for. */
interface GroupChange {
  name?: string;
  externalId?: string | null;
  /** The whole member list (create, PUT, replace of `members`). */
  members?: string[];
  add: string[];
  remove: string[];
  /** `remove` of `members` without a value: every member goes. */
  removeAll?: boolean;
}

export class ScimGroups {
  constructor(private readonly ctx: ScimGroupsContext) {}

  private async found(target: ScimTarget, groupId: string): Promise<GroupRow> {
    const group = groupId.length <= 64 ? await this.ctx.stores.groups.get(target.tenant.id, groupId) : undefined;
    if (!group || group.connection_id !== target.connection.id) throw scimErrors.notFound(`Group ${groupId} not found`);
    return group;
  }

  async representation(target: ScimTarget, group: GroupRow, projection: Projection): Promise<JsonObject> {
    const members = projection.members
      ? (await this.ctx.stores.rbac.listGroupMembers(target.tenant.id, group.id, { limit: MAX_MEMBERS })).map((row) => ({
          value: row.user_id,
          $ref: `${target.baseUrl}/Users/${encodeURIComponent(row.user_id)}`,
          type: 'User',
        }))
      : undefined;
    return {
      schemas: [CORE_GROUP_SCHEMA],
      id: group.id,
      displayName: group.name,
      ...(group.external_id !== null && { externalId: group.external_id }),
      ...(members && { members }),
      meta: { resourceType: 'Group', created: group.created_at, lastModified: group.updated_at, location: `${target.baseUrl}/Groups/${encodeURIComponent(group.id)}` },
    };
  }

  async get(target: ScimTarget, groupId: string, projection: Projection): Promise<JsonObject> {
    return this.representation(target, await this.found(target, groupId), projection);
  }

  /** GET /Groups: `startIndex` from 1, `count` clamped to MAX_COUNT; a filter answered from an index (./filter.ts). */
  async list(target: ScimTarget, query: { filter?: string; startIndex?: string; count?: string; attributes?: string; excludedAttributes?: string }): Promise<JsonObject> {
    const startIndex = Math.max(1, integer(query.startIndex, 'startIndex') ?? 1);
    const count = Math.min(MAX_COUNT, Math.max(0, integer(query.count, 'count') ?? MAX_COUNT));
    const projection = projectionOf(query);
    const { tenant, connection } = target;
    const groups = this.ctx.stores.groups;
    if (query.filter !== undefined) {
      const parsed = await parseGroupFilter(query.filter);
      const { by, value } = parsed.lookup;
      const candidates =
        by === 'id'
          ? [await groups.get(tenant.id, value)].filter((group): group is GroupRow => group?.connection_id === connection.id)
          : (await groups.list(tenant.id, { connection_id: connection.id, ...(by === 'display_name' ? { name: value } : { external_id: value }) }, { kind: 'offset', offset: 0, limit: MAX_CANDIDATES, withTotal: false })).rows;
      // The whole filter is tested on the full representation (members included), then answered as asked.
      const matching: GroupRow[] = [];
      for (const group of candidates) if (parsed.matches(await this.representation(target, group, { members: true }))) matching.push(group);
      const page = matching.slice(startIndex - 1, startIndex - 1 + count);
      return listResponse(await Promise.all(page.map((group) => this.representation(target, group, projection))), matching.length, startIndex);
    }
    const page = await groups.list(tenant.id, { connection_id: connection.id }, { kind: 'offset', offset: startIndex - 1, limit: count, withTotal: true });
    const resources = [];
    for (const group of page.rows) resources.push(await this.representation(target, group, projection));
    return listResponse(resources, page.total ?? resources.length, startIndex);
  }

  /** POST /Groups → 201, with its members (users of the connection). */
  async create(target: ScimTarget, body: unknown): Promise<JsonObject> {
    const change = checkedGroup(body);
    const now = isoAt(this.ctx.now());
    const row: GroupRow = {
      tenant_id: target.tenant.id,
      id: newGroupId(),
      name: change.name!,
      description: null,
      external_id: change.externalId ?? null,
      connection_id: target.connection.id,
      organization_id: null,
      created_at: now,
      updated_at: now,
    };
    await this.write(target, row, change, true);
    return this.representation(target, row, { members: true });
  }

  /** PUT /Groups/{id}: name, external id and members replaced (RFC 7644 §3.5.1: members left out means none). */
  async replace(target: ScimTarget, groupId: string, body: unknown): Promise<JsonObject> {
    const group = await this.found(target, groupId);
    const change = checkedGroup(body);
    change.members ??= [];
    const row = { ...group, name: change.name!, external_id: change.externalId ?? null, updated_at: isoAt(this.ctx.now()) };
    await this.write(target, row, change, false);
    return this.representation(target, row, { members: true });
  }

  /** PATCH /Groups/{id} (RFC 7644 §3.5.2); 200 with the group as it now is (204 would do as well; both clients take 200). */
  async patch(target: ScimTarget, groupId: string, body: unknown, projection: Projection): Promise<JsonObject> {
    const group = await this.found(target, groupId);
    const change = await patchChange(checkedPatchOperations(body));
    const row = { ...group, name: change.name ?? group.name, external_id: change.externalId === undefined ? group.external_id : change.externalId, updated_at: isoAt(this.ctx.now()) };
    await this.write(target, row, change, false);
    return this.representation(target, row, projection);
  }

  /** DELETE /Groups/{id} → 204: the group, its memberships and its role assignments go; the users stay. */
  async delete(target: ScimTarget, groupId: string): Promise<void> {
    await this.found(target, groupId);
    await this.ctx.stores.groups.delete(target.tenant.id, groupId);
  }

  /** The group and its memberships written in one transaction; every member named must be a user this connection provisioned. */
  private async write(target: ScimTarget, row: GroupRow, change: GroupChange, insert: boolean): Promise<void> {
    const { tenant, connection } = target;
    const named = [...new Set([...(change.members ?? []), ...change.add])];
    for (const userId of named) {
      if (!(await this.ctx.stores.scim.getUser(tenant.id, connection.id, userId))) throw scimErrors.invalidValue(`The member ${userId.slice(0, 300)} is not a user of this connection`);
    }
    try {
      await this.ctx.unitOfWork.transaction(async (stores) => {
        if (insert) await stores.groups.insert(row);
        else await stores.groups.update(tenant.id, row.id, { name: row.name, external_id: row.external_id, updated_at: row.updated_at });
        const rbac = stores.rbac;
        if (change.members !== undefined || change.removeAll) {
          // Replacing the list: the current members not in it go, in pages (a group is never loaded whole).
          const keep = new Set(change.members ?? []);
          for (let after: string | undefined; ; ) {
            const page = await rbac.listGroupMembers(tenant.id, row.id, { ...(after !== undefined && { after }), limit: MAX_MEMBERS });
            const gone = page.map((member) => member.user_id).filter((id) => !keep.has(id));
            if (gone.length > 0) await rbac.removeGroupMembers(tenant.id, row.id, gone);
            if (page.length < MAX_MEMBERS) break;
            after = page.at(-1)!.user_id;
          }
        }
        if (change.remove.length > 0) await rbac.removeGroupMembers(tenant.id, row.id, change.remove);
        const adding = [...new Set([...(change.members ?? []), ...change.add])];
        if (adding.length > 0) {
          const result = await rbac.addGroupMembers(tenant.id, row.id, adding, row.updated_at);
          if (result.status === 'item_not_found') throw scimErrors.invalidValue(`The member ${result.id.slice(0, 300)} is not a user of this connection`);
          if (result.status !== 'assigned') throw scimErrors.notFound(`Group ${row.id} not found`);
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw scimErrors.uniqueness('displayName is taken by another group of this connection');
      throw error;
    }
  }
}

function checkedName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME_LENGTH || CONTROL.test(value)) {
    throw scimErrors.invalidValue(`displayName is required: 1 to ${MAX_NAME_LENGTH} characters, no control characters`);
  }
  return value;
}

function checkedExternalId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_EXTERNAL_ID_LENGTH || CONTROL.test(value)) throw scimErrors.invalidValue(`externalId is a string of at most ${MAX_EXTERNAL_ID_LENGTH} characters`);
  return value;
}

/** `[{value}, …]` (Okta adds `display`, Entra ID `$ref: null`): the member ids, at most MAX_MEMBERS. */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : isObject(value) ? [value] : undefined;
  if (!list) throw scimErrors.invalidValue('members is a list of {"value": user id}');
  if (list.length > MAX_MEMBERS) throw scimErrors.invalidValue(`At most ${MAX_MEMBERS} members in one request`);
  return list.map((item) => {
    const id = isObject(item) ? memberValue(item) : undefined;
    if (typeof id !== 'string' || id === '' || id.length > 300) throw scimErrors.invalidValue('Each member is {"value": user id}');
    return id;
  });
}

function memberValue(item: JsonObject): unknown {
  for (const key of Object.keys(item)) if (key.toLowerCase() === 'value') return item[key];
  return undefined;
}

/** A Group resource (POST, PUT): `displayName`, `externalId`, `members`; `id`, `meta` and `schemas` are the server's or ignored. */
function checkedGroup(body: unknown): GroupChange {
  if (!isObject(body)) throw scimErrors.invalidSyntax('The body must be a SCIM Group resource (a JSON object)');
  const change: GroupChange = { add: [], remove: [] };
  for (const [key, value] of Object.entries(body)) {
    switch (key.toLowerCase()) {
      case 'displayname':
        change.name = checkedName(value);
        break;
      case 'externalid':
        change.externalId = checkedExternalId(value);
        break;
      case 'members':
        change.members = memberIds(value ?? []);
        break;
      case 'schemas':
      case 'id':
      case 'meta':
        break;
      default:
        throw scimErrors.invalidValue(`Unknown attribute ${key.slice(0, 100)} of a Group`);
    }
  }
  if (change.name === undefined) checkedName(undefined);
  return change;
}

/** What a PATCH's operations ask for, in order; a member both added and removed ends as the last operation says. */
async function patchChange(operations: PatchOperation[]): Promise<GroupChange> {
  const change: GroupChange = { add: [], remove: [] };
  const add = (ids: string[]) => {
    change.remove = change.remove.filter((id) => !ids.includes(id));
    change.add.push(...ids);
  };
  const remove = (ids: string[]) => {
    change.add = change.add.filter((id) => !ids.includes(id));
    if (change.members) change.members = change.members.filter((id) => !ids.includes(id));
    change.remove.push(...ids);
  };
  const replaceMembers = (ids: string[]) => {
    change.members = ids;
    change.add = [];
    change.remove = [];
  };
  const apply = (op: string, attribute: string, value: unknown) => {
    switch (attribute.toLowerCase()) {
      case 'displayname':
        if (op === 'remove') throw scimErrors.mutability('displayName is required and cannot be removed');
        change.name = checkedName(value);
        return;
      case 'externalid':
        change.externalId = op === 'remove' ? null : checkedExternalId(value);
        return;
      case 'members':
        if (op === 'remove') {
          if (value === undefined) {
            replaceMembers([]);
            change.removeAll = true;
          } else remove(memberIds(value));
        } else if (op === 'add') add(memberIds(value));
        else replaceMembers(memberIds(value));
        return;
      case 'id':
      case 'schemas':
      case 'meta':
        // Okta's path-less replace carries the group's own id: nothing to change.
        return;
      default:
        throw scimErrors.invalidPath(`Unknown attribute ${attribute.slice(0, 100)} of a Group`);
    }
  };
  for (const operation of operations) {
    const { op, path, value } = operation;
    if (path === undefined) {
      if (!isObject(value)) throw scimErrors.invalidValue('An operation without a path takes an object value');
      for (const [key, member] of Object.entries(value)) apply(op, key, member);
      continue;
    }
    const local = path.replace(/^urn:ietf:params:scim:schemas:core:2\.0:Group:/i, '');
    if (local.includes('[')) {
      const ids = await memberPathValues(local);
      if (!ids || op !== 'remove') throw scimErrors.invalidPath('A filtered path is members[value eq "…"], with remove');
      remove(ids);
      continue;
    }
    apply(op, local, value);
  }
  if (change.add.length + change.remove.length + (change.members?.length ?? 0) > MAX_MEMBERS * 2) throw scimErrors.invalidValue(`At most ${MAX_MEMBERS} members in one request`);
  return change;
}
