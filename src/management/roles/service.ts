/**
 * Business rules of roles, behind the Management API routes; a role's
 * permissions, users and groups are RoleAccessService's (src/management/rbac).
 * Token issuance reads roles' permissions per token, uncached, so writes leave
 * the issuance caches alone.
 */
import { entityLimitRefusals } from '../entity-limits.js';
import { managementErrors } from '../../platform/http/errors.js';
import { newRoleId, roleFromRow, type Role, type RoleRow } from '../../domain/roles/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { CreateRoleBody, UpdateRoleBody } from './schema.js';
import { type RoleStore } from '../../domain/roles/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';

/** The service's own words, recorded without an errorCode (management-api-wire-notes §2). */
export const roleNotFound = () => managementErrors.notFound('The role does not exist.');
const conflict = () => managementErrors.conflict('The role already exists.');

export type RoleList = Role[] | { roles: Role[]; start: number; limit: number; total: number };

/** What RoleService touches. */
export interface RoleServiceContext {
  readonly now: () => number;
  readonly stores: { readonly roles: RoleStore };
}

export class RoleService {
  readonly roles: RoleStore;

  constructor(private readonly ctx: RoleServiceContext) {
    this.roles = ctx.stores.roles;
  }

  async list(tenant: Tenant, query: { page: number; perPage: number; includeTotals: boolean; nameFilter?: string }): Promise<RoleList> {
    const start = query.page * query.perPage;
    const { rows, total } = await this.roles.list(tenant.id, {
      offset: start,
      limit: query.perPage,
      ...(query.nameFilter !== undefined && { nameFilter: query.nameFilter }),
      withTotal: query.includeTotals,
    });
    const roles = rows.map(roleFromRow);
    // Recorded key order: roles, start, limit, total (go-auth0 TestRoleManager_List).
    return query.includeTotals ? { roles, start, limit: query.perPage, total: total ?? 0 } : roles;
  }

  async get(tenant: Tenant, id: string): Promise<Role> {
    const row = await this.roles.get(tenant.id, id);
    if (!row) throw roleNotFound();
    return roleFromRow(row);
  }

  async create(tenant: Tenant, body: CreateRoleBody): Promise<Role> {
    const row: RoleRow = {
      tenant_id: tenant.id,
      id: newRoleId(),
      name: body.name,
      description: body.description ?? null,
      created_at: isoAt(this.ctx.now()),
    };
    try {
      if (!(await this.roles.insert(row))) throw entityLimitRefusals.rolesPerTenant();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      throw error;
    }
    return roleFromRow(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateRoleBody): Promise<Role> {
    const row = await this.roles.get(tenant.id, id);
    if (!row) throw roleNotFound();
    const changes: Partial<Pick<RoleRow, 'name' | 'description'>> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    let updated: boolean;
    try {
      updated = await this.roles.update(tenant.id, id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      throw error;
    }
    if (!updated) throw roleNotFound();
    return roleFromRow({ ...row, ...changes });
  }

  /** The role, its permissions, and its user and group assignments go together. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.roles.delete(tenant.id, id))) throw roleNotFound();
  }
}
