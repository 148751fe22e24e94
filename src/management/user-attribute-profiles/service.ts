/**
 * User attribute profiles: how the users of an enterprise connection get
 * their attributes (an OIDC claim, SAML attributes, a SCIM path, each
 * overridable per strategy) and their user id. Ids `uap_…`; `name` unique
 * per tenant (409 otherwise); a PATCH replaces the members it names
 * (`user_id: null` removes the user id mapping). The templates are a fixed
 * list (./templates.ts).
 */
import type { UserAttributeProfileRow } from '../../domain/user-attribute-profiles/rows.js';
import type { UserAttributeProfileChanges, UserAttributeProfileStore } from '../../domain/user-attribute-profiles/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { CreateProfileBody, ProfileListQuery, ProfileResponse, TemplateResponse, UpdateProfileBody } from './schema.js';
import { USER_ATTRIBUTE_PROFILE_TEMPLATES } from './templates.js';

/** Profiles a tenant may have (beyond: 403, as for the other profile resources). */
export const MAX_USER_ATTRIBUTE_PROFILES = 100;
/** The document: 5 per page unless `take` says otherwise. */
const DEFAULT_TAKE = 5;
/** Names that would reach an object's prototype when the map is read into one (see src/domain/connections/attribute-map.ts). */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

function toApi(row: UserAttributeProfileRow): ProfileResponse {
  return { id: row.id, name: row.name, ...(row.user_id && { user_id: row.user_id }), user_attributes: row.user_attributes };
}

function checkAttributeNames(attributes: Record<string, unknown>): void {
  for (const name of Object.keys(attributes)) {
    if (RESERVED_NAMES.has(name)) throw managementErrors.invalidBody(`Payload validation error: 'Attribute name "${name}" is reserved' on property user_attributes.`);
  }
}

const notFound = () => managementErrors.notFound('User attribute profile not found.');
const templateNotFound = () => managementErrors.notFound('User attribute profile template not found.');
const taken = (name: string) => managementErrors.conflict(`User attribute profile conflict: a user attribute profile named "${name}" already exists.`);

const inUse = (kind: 'client' | 'self-service profile', ids: string[]) =>
  managementErrors.conflict(`The user attribute profile is in use by the ${kind}${ids.length > 1 ? 's' : ''} ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' and others' : ''}; change their configuration first.`);

/** What UserAttributeProfileService touches. */
export interface UserAttributeProfileServiceContext extends CheckpointSealing {
  readonly stores: { readonly userAttributeProfiles: UserAttributeProfileStore };
}

export class UserAttributeProfileService {
  constructor(private readonly ctx: UserAttributeProfileServiceContext) {}

  async list(tenant: Tenant, query: ProfileListQuery): Promise<CheckpointList<'user_attribute_profiles', ProfileResponse>> {
    const scope = `${tenant.id}:user-attribute-profiles`;
    return checkpointPage(
      this.ctx,
      scope,
      'user_attribute_profiles',
      checkpointPaging(this.ctx, { ...(query.from !== undefined && { from: query.from }), take: query.take ?? DEFAULT_TAKE }, scope),
      (window) => this.ctx.stores.userAttributeProfiles.list(tenant.id, window.after, window.limit),
      (row) => row.id,
      toApi,
    );
  }

  async get(tenant: Tenant, id: string): Promise<ProfileResponse> {
    const row = await this.ctx.stores.userAttributeProfiles.get(tenant.id, id);
    if (!row) throw notFound();
    return toApi(row);
  }

  async create(tenant: Tenant, body: CreateProfileBody): Promise<ProfileResponse> {
    checkAttributeNames(body.user_attributes);
    if ((await this.ctx.stores.userAttributeProfiles.count(tenant.id)) >= MAX_USER_ATTRIBUTE_PROFILES) {
      throw new ManagementError(403, 'You reached the limit of entities of this type for this tenant', 'insufficient_scope');
    }
    const now = isoAt(this.ctx.now());
    const row: UserAttributeProfileRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('uap'),
      name: body.name,
      user_id: body.user_id ?? null,
      user_attributes: body.user_attributes,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.ctx.stores.userAttributeProfiles.create(row))) throw taken(body.name);
    return toApi(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateProfileBody): Promise<ProfileResponse> {
    if (body.user_attributes !== undefined) checkAttributeNames(body.user_attributes);
    const changes: UserAttributeProfileChanges = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.user_id !== undefined && { user_id: body.user_id }),
      ...(body.user_attributes !== undefined && { user_attributes: body.user_attributes }),
    };
    const updated = await this.ctx.stores.userAttributeProfiles.update(tenant.id, id, changes, isoAt(this.ctx.now()));
    if (updated === 'conflict') throw taken(body.name!);
    if (!updated) throw notFound();
    return toApi(updated);
  }

  /**
   * Refused (409) while a client's express or My Organization configuration,
   * or a self-service profile, names the profile: they would name nothing.
   */
  async delete(tenant: Tenant, id: string): Promise<void> {
    const clients = await this.ctx.stores.userAttributeProfiles.clientsUsing(tenant.id, id, 6);
    if (clients.length > 0) throw inUse('client', clients);
    const selfService = await this.ctx.stores.userAttributeProfiles.selfServiceProfilesUsing(tenant.id, id, 6);
    if (selfService.length > 0) throw inUse('self-service profile', selfService);
    await this.ctx.stores.userAttributeProfiles.delete(tenant.id, id);
  }

  templates(): { user_attribute_profile_templates: TemplateResponse[] } {
    return { user_attribute_profile_templates: [...USER_ATTRIBUTE_PROFILE_TEMPLATES] };
  }

  template(id: string): TemplateResponse {
    const found = USER_ATTRIBUTE_PROFILE_TEMPLATES.find((template) => template.id === id);
    if (!found) throw templateNotFound();
    return found;
  }
}
