/**
 * Connection profiles: named settings (organization behaviour, the prefix of
 * the connection names, enabled features, per-strategy overrides) that
 * enterprise connections made through express configuration start from.
 * Ids `cop_…`; `name` unique per tenant (409 otherwise); a PATCH replaces
 * the members it names and keeps the others. The templates are a fixed list
 * (./templates.ts).
 */
import type { ConnectionProfileMembers, ConnectionProfileRow } from '../../domain/connection-profiles/rows.js';
import type { ConnectionProfileStore } from '../../domain/connection-profiles/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { CreateProfileBody, ProfileListQuery, ProfileResponse, TemplateResponse, UpdateProfileBody } from './schema.js';
import { CONNECTION_PROFILE_TEMPLATES } from './templates.js';

/** Profiles a tenant may have (beyond: 403, as for the other profile resources). */
export const MAX_CONNECTION_PROFILES = 100;
/** The document: 5 per page unless `take` says otherwise, 10 at most (a larger `take`, as the SDK sends by default, gets 10). */
const DEFAULT_TAKE = 5;
const MAX_TAKE = 10;

const MEMBERS = ['organization', 'connection_name_prefix_template', 'enabled_features', 'connection_config', 'strategy_overrides'] as const;

function toApi(row: ConnectionProfileRow): ProfileResponse {
  return { id: row.id, name: row.name, ...row.profile };
}

/** A feature named twice is kept once, in the order first given. */
const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** The members of a body as stored: only those given, features without repeats. */
function membersOf(body: UpdateProfileBody, base: ConnectionProfileMembers = {}): ConnectionProfileMembers {
  const out: Record<string, unknown> = { ...base };
  for (const key of MEMBERS) if (body[key] !== undefined) out[key] = body[key];
  const members = out as ConnectionProfileMembers;
  if (members.enabled_features) members.enabled_features = unique(members.enabled_features);
  if (members.strategy_overrides) {
    for (const override of Object.values(members.strategy_overrides)) {
      if (override?.enabled_features) override.enabled_features = unique(override.enabled_features);
    }
  }
  return members;
}

const notFound = () => managementErrors.notFound('Connection profile not found.');
const templateNotFound = () => managementErrors.notFound('Connection profile template not found.');
const taken = (name: string) => managementErrors.conflict(`Connection profile conflict: a connection profile named "${name}" already exists.`);

const inUse = (clients: string[]) =>
  managementErrors.conflict(`The connection profile is in use by the client${clients.length > 1 ? 's' : ''} ${clients.slice(0, 5).join(', ')}${clients.length > 5 ? ' and others' : ''}; change their configuration first.`);

/** What ConnectionProfileService touches. */
export interface ConnectionProfileServiceContext extends CheckpointSealing {
  readonly stores: { readonly connectionProfiles: ConnectionProfileStore };
}

export class ConnectionProfileService {
  constructor(private readonly ctx: ConnectionProfileServiceContext) {}

  async list(tenant: Tenant, query: ProfileListQuery): Promise<CheckpointList<'connection_profiles', ProfileResponse>> {
    const scope = `${tenant.id}:connection-profiles`;
    return checkpointPage(
      this.ctx,
      scope,
      'connection_profiles',
      checkpointPaging(this.ctx, { ...(query.from !== undefined && { from: query.from }), take: Math.min(query.take ?? DEFAULT_TAKE, MAX_TAKE) }, scope),
      (window) => this.ctx.stores.connectionProfiles.list(tenant.id, window.after, window.limit),
      (row) => row.id,
      toApi,
    );
  }

  async get(tenant: Tenant, id: string): Promise<ProfileResponse> {
    const row = await this.ctx.stores.connectionProfiles.get(tenant.id, id);
    if (!row) throw notFound();
    return toApi(row);
  }

  async create(tenant: Tenant, body: CreateProfileBody): Promise<ProfileResponse> {
    if ((await this.ctx.stores.connectionProfiles.count(tenant.id)) >= MAX_CONNECTION_PROFILES) {
      throw new ManagementError(403, 'You reached the limit of entities of this type for this tenant', 'insufficient_scope');
    }
    const now = isoAt(this.ctx.now());
    const row: ConnectionProfileRow = { tenant_id: tenant.id, id: newPrefixedId('cop'), name: body.name, profile: membersOf(body), created_at: now, updated_at: now };
    if (!(await this.ctx.stores.connectionProfiles.create(row))) throw taken(body.name);
    return toApi(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateProfileBody): Promise<ProfileResponse> {
    const current = await this.ctx.stores.connectionProfiles.get(tenant.id, id);
    if (!current) throw notFound();
    const updated = await this.ctx.stores.connectionProfiles.update(
      tenant.id,
      id,
      { ...(body.name !== undefined && { name: body.name }), profile: membersOf(body, current.profile) },
      isoAt(this.ctx.now()),
    );
    if (updated === 'conflict') throw taken(body.name!);
    if (!updated) throw notFound();
    return toApi(updated);
  }

  /** Refused (409) while a client's express or My Organization configuration names the profile: the client would name nothing. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    const users = await this.ctx.stores.connectionProfiles.clientsUsing(tenant.id, id, 6);
    if (users.length > 0) throw inUse(users);
    await this.ctx.stores.connectionProfiles.delete(tenant.id, id);
  }

  templates(): { connection_profile_templates: TemplateResponse[] } {
    return { connection_profile_templates: [...CONNECTION_PROFILE_TEMPLATES] };
  }

  template(id: string): TemplateResponse {
    const found = CONNECTION_PROFILE_TEMPLATES.find((template) => template.id === id);
    if (!found) throw templateNotFound();
    return found;
  }
}
