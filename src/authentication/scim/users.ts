/**
 * /Users of a connection's SCIM endpoint (RFC 7644 §3): each SCIM user is a
 * user of the connection with the id a login through it gets
 * (`strategy.userId(connection, value of user_id_attribute)`, as
 * src/domain/users/federated-user.ts), so a user provisioned before their
 * first login logs in as the same user. The profile is what the
 * configuration's mapping makes of the resource; the resource itself is kept
 * beside the user (without `password`, never stored) and answered back.
 * `active: false` blocks the user and ends their sessions (back-channel
 * logout told); DELETE deletes the user.
 */
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import { connectionStrategy } from '../../domain/connections/strategies/index.js';
import { endUserSessions, type UserSessionsEnding } from '../../domain/backchannel-logout/announce.js';
import type { JsonObject } from '../../domain/json.js';
import { CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA, mappedProfile, member, readScimPath, scimBoolean } from '../../domain/scim/mapping.js';
import type { ScimConfigurationRow, ScimUserRow } from '../../domain/scim/rows.js';
import type { ScimStore } from '../../domain/scim/store.js';
import type { Stores, UnitOfWork } from '../../domain/stores.js';
import { defaultPicture } from '../../domain/users/new-user.js';
import { userFromRow } from '../../domain/users/model.js';
import { recordEvent } from '../../domain/event-streams/events.js';
import type { UserRow } from '../../domain/rows.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { scimErrors } from './errors.js';
import { MAX_CANDIDATES, parseUserFilter } from './filter.js';
import { elementFilterOf } from '../../domain/scim/element-filter.js';
import { ENTERPRISE_ATTRIBUTES, listResponse, MAX_COUNT, USER_ATTRIBUTES } from './resources.js';
import { checkedPatchOperations, integer, isObject, type PatchOperation } from './patch.js';

/** The largest SCIM resource kept for a user. */
export const MAX_RESOURCE_BYTES = 64 * 1024;

export interface ScimUsersContext extends UserSessionsEnding {
  readonly stores: Pick<Stores, 'backchannelLogout' | 'sessions'> & {
    readonly scim: ScimStore;
    readonly users: UserStore;
    readonly connections: Pick<ConnectionStore, 'get'>;
  };
  /** A user's change, its SCIM resource and its event (src/domain/event-streams/events.ts) commit together. */
  readonly unitOfWork: UnitOfWork<Pick<Stores, 'users' | 'scim' | 'eventStreams'>>;
}

/** The connection a request is for, with its configuration. */
export interface ScimTarget {
  tenant: Tenant;
  connection: ConnectionRow;
  configuration: ScimConfigurationRow;
  /** `https://{domain}/scim/v2/connections/{id}`. */
  baseUrl: string;
}

const KNOWN = new Map(USER_ATTRIBUTES.map((a) => [a.name.toLowerCase(), a]));
const KNOWN_ENTERPRISE = new Map(ENTERPRISE_ATTRIBUTES.map((a) => [a.name.toLowerCase(), a]));

/** The resource as kept: what the client sent, less what the server owns (`id`, `meta`), `active` (the user's `blocked`) and `password` (never kept). */
function kept(resource: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(resource)) {
    if (!['id', 'meta', 'password', 'active'].includes(key.toLowerCase())) out[key] = value;
  }
  if (!Array.isArray(out.schemas)) out.schemas = [CORE_USER_SCHEMA];
  return out;
}

export class ScimUsers {
  constructor(private readonly ctx: ScimUsersContext) {}

  representation(target: ScimTarget, row: ScimUserRow, user: Pick<UserRow, 'user_id' | 'blocked'>): JsonObject {
    return {
      ...row.resource,
      id: user.user_id,
      active: user.blocked === 0,
      meta: { resourceType: 'User', created: row.created_at, lastModified: row.updated_at, location: `${target.baseUrl}/Users/${encodeURIComponent(user.user_id)}` },
    };
  }

  private async found(target: ScimTarget, userId: string): Promise<{ row: ScimUserRow; user: UserRow }> {
    const row = await this.ctx.stores.scim.getUser(target.tenant.id, target.connection.id, userId);
    const user = row && (await this.ctx.stores.users.getIdentity(target.tenant.id, userId));
    if (!row || !user) throw scimErrors.notFound(`User ${userId} not found`);
    return { row, user };
  }

  async get(target: ScimTarget, userId: string): Promise<JsonObject> {
    const { row, user } = await this.found(target, userId);
    return this.representation(target, row, user);
  }

  /** GET /Users: `startIndex` from 1, `count` clamped to MAX_COUNT; a filter answered from an index (./filter.ts). */
  async list(target: ScimTarget, query: { filter?: string; startIndex?: string; count?: string }): Promise<JsonObject> {
    const startIndex = Math.max(1, integer(query.startIndex, 'startIndex') ?? 1);
    const count = Math.min(MAX_COUNT, Math.max(0, integer(query.count, 'count') ?? MAX_COUNT));
    const { tenant, connection } = target;
    const scim = this.ctx.stores.scim;
    if (query.filter !== undefined) {
      const parsed = await parseUserFilter(query.filter);
      const candidates = await scim.findUsers(tenant.id, connection.id, parsed.lookup, 0, MAX_CANDIDATES);
      const users = await this.usersOf(tenant, candidates.rows);
      const matching = users.map(([row, user]) => this.representation(target, row, user)).filter(parsed.matches);
      return listResponse(matching.slice(startIndex - 1, startIndex - 1 + count), matching.length, startIndex);
    }
    const page = count === 0 ? { rows: [], total: (await scim.listUsers(tenant.id, connection.id, 0, 0)).total } : await scim.listUsers(tenant.id, connection.id, startIndex - 1, count);
    const users = await this.usersOf(tenant, page.rows);
    return listResponse(users.map(([row, user]) => this.representation(target, row, user)), page.total, startIndex);
  }

  private async usersOf(tenant: Tenant, rows: ScimUserRow[]): Promise<[ScimUserRow, UserRow][]> {
    const out: [ScimUserRow, UserRow][] = [];
    for (const row of rows) {
      const user = await this.ctx.stores.users.getIdentity(tenant.id, row.user_id);
      if (user) out.push([row, user]);
    }
    return out;
  }

  /** POST /Users → 201; a user of the connection who logged in before is taken over, one already provisioned is 409 uniqueness. */
  async create(target: ScimTarget, body: unknown): Promise<JsonObject> {
    const resource = checkedResource(body);
    const idValue = readScimPath(resource, target.configuration.user_id_attribute, await elementFilterOf());
    if (typeof idValue !== 'string' || idValue === '' || idValue.length > 256) {
      throw scimErrors.invalidValue(`${target.configuration.user_id_attribute} (the connection's user id attribute) is required: a string of at most 256 characters`);
    }
    const strategy = connectionStrategy(target.connection.strategy);
    if (!strategy) throw scimErrors.notFound('The connection does not exist');
    const userId = strategy.userId(target.connection, idValue);
    if (await this.ctx.stores.scim.getUser(target.tenant.id, target.connection.id, userId)) throw scimErrors.uniqueness(`A user with this ${target.configuration.user_id_attribute} exists`);
    return this.write(target, userId, resource, undefined);
  }

  /** PUT /Users/{id}: the resource replaced (RFC 7644 §3.5.1); the id stays. */
  async replace(target: ScimTarget, userId: string, body: unknown): Promise<JsonObject> {
    const { row } = await this.found(target, userId);
    return this.write(target, userId, checkedResource(body), row);
  }

  /** PATCH /Users/{id} (RFC 7644 §3.5.2), through scim-patch; Entra ID's capitalised ops and "True"/"False" strings taken. */
  async patch(target: ScimTarget, userId: string, body: unknown): Promise<JsonObject> {
    const { row, user } = await this.found(target, userId);
    const operations = checkedPatch(body);
    const { scimPatch } = await import('scim-patch');
    const current = { ...row.resource, active: user.blocked === 0, meta: { created: new Date(row.created_at), lastModified: new Date(row.updated_at) }, schemas: row.resource.schemas ?? [CORE_USER_SCHEMA] };
    let patched: JsonObject;
    try {
      patched = scimPatch(current as never, operations as never, { mutateDocument: false, treatMissingAsAdd: true }) as unknown as JsonObject;
    } catch (error) {
      // scim-patch is a pure function of the resource and the operations: whatever it throws is about the operations.
      throw scimErrors.invalidValue(`The PATCH operations cannot be applied: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid operation'}`);
    }
    return this.write(target, userId, patched, row);
  }

  /**
   * DELETE /Users/{id} → 204, as the configuration's `deprovisioning` says:
   * `delete`: the user's sessions announced ended (`account-deleted`), then
   * the user (and their SCIM resource) deleted; `block`: the user blocked,
   * their sessions ended (`session-revoked`), and their SCIM resource
   * deleted, so the directory reads 404 after (RFC 7644 §3.6) and may
   * provision the same user again, which unblocks them when `active`.
   */
  async delete(target: ScimTarget, userId: string): Promise<void> {
    const { user } = await this.found(target, userId);
    const { tenant, connection, configuration } = target;
    if (configuration.deprovisioning === 'block') {
      await this.ctx.unitOfWork.transaction(async (stores) => {
        await stores.users.update(tenant.id, userId, { blocked: 1, updated_at: isoAt(this.ctx.now()) });
        await stores.scim.deleteUser(tenant.id, connection.id, userId);
      });
      if (user.blocked !== 1) await endUserSessions(this.ctx, tenant.id, userId, 'session-revoked', { revoke: true });
      return;
    }
    await endUserSessions(this.ctx, tenant.id, userId, 'account-deleted', { revoke: false });
    await this.ctx.unitOfWork.transaction(async (stores) => {
      if (await stores.users.delete(tenant.id, userId)) {
        await recordEvent(stores, tenant, 'user.deleted', { ...userFromRow(user, connection.name) }, this.ctx.now());
      }
    });
  }

  /** The user and their resource written in one transaction; a user blocked by it has their sessions ended. */
  private async write(target: ScimTarget, userId: string, resource: JsonObject, previous: ScimUserRow | undefined): Promise<JsonObject> {
    const { tenant, connection, configuration } = target;
    const userName = member(resource, 'userName');
    if (typeof userName !== 'string' || userName === '' || userName.length > 256) throw scimErrors.invalidValue('userName is required: a string of at most 256 characters');
    const activeValue = member(resource, 'active');
    const active = activeValue === undefined ? undefined : scimBoolean(activeValue);
    if (activeValue !== undefined && active === undefined) throw scimErrors.invalidValue('active must be a boolean');
    const mapped = mappedProfile(resource, configuration.mapping, await elementFilterOf());
    if ('invalid' in mapped) throw scimErrors.invalidValue(`The value of ${mapped.invalid} cannot be taken`);
    const stored = kept(resource);
    if (Buffer.byteLength(JSON.stringify(stored)) > MAX_RESOURCE_BYTES) throw scimErrors.tooLarge(`The resource is larger than ${MAX_RESOURCE_BYTES} bytes`);
    const externalId = member(resource, 'externalId');
    const now = isoAt(this.ctx.now());
    const blocked = mapped.blocked ?? (active === undefined ? undefined : !active);
    const root = mapped.root;
    const email = root.email ?? null;
    const fields = {
      email,
      email_lower: email?.toLowerCase() ?? null,
      name: root.name ?? email ?? userName,
      given_name: root.given_name ?? null,
      family_name: root.family_name ?? null,
      nickname: root.nickname ?? (email ? email.split('@')[0]! : userName),
      picture: root.picture ?? (email ? defaultPicture(email.toLowerCase()) : null),
      phone_number: root.phone_number ?? null,
      username: root.username ?? null,
      username_lower: root.username?.toLowerCase() ?? null,
    };
    const row: ScimUserRow = {
      tenant_id: tenant.id,
      user_id: userId,
      connection_id: connection.id,
      external_id: typeof externalId === 'string' ? externalId.slice(0, 256) : null,
      user_name_lower: userName.toLowerCase(),
      resource: stored,
      created_at: previous?.created_at ?? now,
      updated_at: now,
    };
    let wasBlocked = false;
    let isBlocked = false;
    try {
      await this.ctx.unitOfWork.transaction(async (stores) => {
        const existing = await stores.users.getIdentity(tenant.id, userId);
        const metadata = (kind: 'app_metadata' | 'user_metadata') => {
          const merged: JsonObject = { ...(existing?.[kind] ?? {}), ...mapped[kind] };
          for (const key of mapped.unset[kind]) delete merged[key];
          return merged;
        };
        if (existing) {
          if (existing.connection_id !== connection.id) throw scimErrors.uniqueness('A user with this id exists in another connection');
          wasBlocked = existing.blocked === 1;
          isBlocked = blocked ?? wasBlocked;
          await stores.users.update(tenant.id, userId, { ...fields, blocked: isBlocked ? 1 : 0, app_metadata: metadata('app_metadata'), user_metadata: metadata('user_metadata'), updated_at: now });
        } else {
          isBlocked = blocked ?? false;
          await stores.users.insert({
            tenant_id: tenant.id,
            user_id: userId,
            connection_id: connection.id,
            ...fields,
            email_verified: 0,
            phone_verified: 0,
            password_hash: null,
            blocked: isBlocked ? 1 : 0,
            app_metadata: mapped.app_metadata,
            user_metadata: mapped.user_metadata,
            created_at: now,
            updated_at: now,
            last_login: null,
            last_password_reset: null,
            logins_count: 0,
            linked_to: null,
          });
        }
        if ((await stores.scim.putUser(row)) === 'user_name_taken') throw scimErrors.uniqueness('userName is taken by another user of this connection');
        const user = await stores.users.get(tenant.id, userId);
        if (user) await recordEvent(stores, tenant, existing ? 'user.updated' : 'user.created', { ...userFromRow(user, connection.name) }, this.ctx.now());
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw scimErrors.uniqueness('userName or email is taken by another user of this connection');
      throw error;
    }
    if (isBlocked && !wasBlocked) await endUserSessions(this.ctx, tenant.id, userId, 'session-revoked', { revoke: true });
    return this.representation(target, row, { user_id: userId, blocked: isBlocked ? 1 : 0 });
  }
}

/** A User resource: an object with `userName`; attributes Gatehouse does not know are left as sent. */
function checkedResource(body: unknown): JsonObject {
  if (!isObject(body)) throw scimErrors.invalidSyntax('The body must be a SCIM User resource (a JSON object)');
  return body;
}

/** A PatchOp message (RFC 7644 §3.5.2): its operations, each on a path Gatehouse knows. */
function checkedPatch(body: unknown): PatchOperation[] {
  return checkedPatchOperations(body).map((operation) => {
    const { op, path, value } = operation;
    if (path !== undefined) checkPath(path);
    else if (op === 'remove') throw scimErrors.noTarget('remove needs a path');
    else if (isObject(value)) checkAttributes(value);
    else throw scimErrors.invalidValue('An operation without a path takes an object value');
    return operation;
  });
}

/** A PATCH path's attribute: one of the User schema's, or of the enterprise extension's. */
function checkPath(path: string): void {
  const lower = path.toLowerCase();
  const enterprise = ENTERPRISE_USER_SCHEMA.toLowerCase();
  if (lower.startsWith(`${enterprise}:`)) {
    const name = lower.slice(enterprise.length + 1).split(/[.[]/)[0]!;
    if (!KNOWN_ENTERPRISE.has(name)) throw scimErrors.invalidPath(`Unknown attribute ${path}`);
    return;
  }
  if (lower === enterprise) return;
  const local = lower.startsWith(`${CORE_USER_SCHEMA.toLowerCase()}:`) ? lower.slice(CORE_USER_SCHEMA.length + 1) : lower;
  const name = local.split(/[.[]/)[0]!;
  const attribute = KNOWN.get(name);
  if (!attribute) throw scimErrors.invalidPath(`Unknown attribute ${path}`);
  const sub = /^[^[]*(?:\[[^\]]*\])?\.([^.]+)$/.exec(local)?.[1];
  if (sub !== undefined && !attribute.subAttributes?.some((s) => s.name.toLowerCase() === sub)) throw scimErrors.invalidPath(`Unknown attribute ${path}`);
}

/** A value's top-level members: attributes of the User schema, `schemas`, `externalId`, the enterprise extension. */
function checkAttributes(value: JsonObject): void {
  for (const key of Object.keys(value)) {
    const lower = key.toLowerCase();
    if (['schemas', 'externalid', 'id', 'meta'].includes(lower) || KNOWN.has(lower)) continue;
    if (lower === ENTERPRISE_USER_SCHEMA.toLowerCase()) {
      const extension = value[key];
      if (isObject(extension)) for (const name of Object.keys(extension)) if (!KNOWN_ENTERPRISE.has(name.toLowerCase())) throw scimErrors.invalidPath(`Unknown attribute ${key}:${name}`);
      continue;
    }
    // Okta and Entra ID send dotted paths as keys of a path-less replace (`"name.givenName": "…"`).
    if (lower.includes('.') && KNOWN.has(lower.split('.')[0]!)) continue;
    throw scimErrors.invalidPath(`Unknown attribute ${key}`);
  }
}
