/**
 * How the first operator gets in: the administrator role, and one-time setup
 * links.
 *
 * - The role "Gatehouse administrator" holds every operator scope of the
 *   tenant's Management API (./client.ts OPERATOR_SCOPES). It is an ordinary
 *   role of the tenant (listed, changed, assigned through /api/v2/roles);
 *   created with the default tenant, and by `gatehouse admin-link` for a
 *   tenant that lacks it.
 * - A setup link `https://{domain}/admin/setup?ticket=…` carries 256 random
 *   bits (../secrets.ts). Only its SHA-256 is kept, in the one-time-use store
 *   under the purpose `console_setup_issued` until it expires (7 days); it is
 *   spent by recording the same hash under `console_setup_spent`, which of
 *   two concurrent redemptions only one can do. Both records are the
 *   tenant's, so a link works on its own tenant only.
 */
import { ENTITY_LIMITS } from '../entity-limits.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { newRoleId } from '../roles/model.js';
import { newSecret, secretHash } from '../secrets.js';
import type { Stores } from '../stores.js';
import { managementAudience, type Tenant } from '../tenants/tenant.js';
import { CONSOLE_PATH, OPERATOR_SCOPES } from './client.js';
import type { OneTimeUseStore } from '../one-time-use/store.js';
import type { RbacStore } from '../rbac/store.js';
import type { RoleStore } from '../roles/store.js';

export const ADMINISTRATOR_ROLE_NAME = 'Gatehouse administrator';

/** How long a setup link works. */
export const SETUP_LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const ISSUED = 'console_setup_issued';
const SPENT = 'console_setup_spent';

/** What the console's setup touches. */
export interface ConsoleSetupContext {
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore; readonly rbac: RbacStore; readonly roles: RoleStore };
}

/** The tenant's administrator role (by its exact name), created with every operator scope when missing; its id. */
export async function ensureAdministratorRole(ctx: ConsoleSetupContext, tenant: Tenant): Promise<string> {
  const find = async () =>
    (await ctx.stores.roles.list(tenant.id, { nameFilter: ADMINISTRATOR_ROLE_NAME, offset: 0, limit: 50, withTotal: false })).rows.find((r) => r.name === ADMINISTRATOR_ROLE_NAME);
  let role = await find();
  if (!role) {
    const now = isoAt(ctx.now());
    try {
      const created = await ctx.stores.roles.insert({
        tenant_id: tenant.id,
        id: newRoleId(),
        name: ADMINISTRATOR_ROLE_NAME,
        description: 'Operators of the admin console: every scope of the Management API',
        created_at: now,
      });
      if (!created) throw new Error(`the tenant has ${ENTITY_LIMITS.rolesPerTenant} roles, the most it may have: delete one to create the administrator role`);
    } catch (error) {
      // Another process created it first.
      if (!isUniqueViolation(error)) throw error;
    }
    role = await find();
    if (!role) throw new Error('the administrator role vanished after creation');
    const audience = managementAudience(tenant);
    const result = await ctx.stores.rbac.addRolePermissions(
      tenant.id,
      role.id,
      OPERATOR_SCOPES.map((permission_name) => ({ resource_server_identifier: audience, permission_name })),
      now,
    );
    if (result.status !== 'assigned') throw new Error(`the administrator role's permissions were refused: ${result.status}`);
  }
  return role.id;
}

/** A new setup link of the tenant, on `host` (default: its domain). */
export async function issueSetupLink(ctx: ConsoleSetupContext, tenant: Tenant, host: string = tenant.domain): Promise<{ url: string; expiresAt: string }> {
  const ticket = newSecret();
  const now = ctx.now();
  const expiresAt = isoAt(now + SETUP_LINK_LIFETIME_MS);
  if (!(await ctx.stores.oneTimeUses.use(tenant.id, ISSUED, secretHash(ticket), expiresAt, isoAt(now)))) throw new Error('a fresh setup ticket was already recorded');
  return { url: `https://${host}${CONSOLE_PATH}setup?ticket=${ticket}`, expiresAt };
}

/** Whether the ticket was issued for this tenant, has not expired and was not spent. Reads only. */
export async function setupTicketUsable(ctx: ConsoleSetupContext, tenant: Tenant, ticket: string): Promise<boolean> {
  const now = isoAt(ctx.now());
  const hash = secretHash(ticket);
  return (await ctx.stores.oneTimeUses.used(tenant.id, ISSUED, hash, now)) && !(await ctx.stores.oneTimeUses.used(tenant.id, SPENT, hash, now));
}

/**
 * Spends the ticket with the stores of the caller's unit of work: true for
 * the one caller that spends a usable ticket; false when it is not usable
 * (the transaction then writes nothing more).
 */
export async function spendSetupTicket(stores: Pick<Stores, 'oneTimeUses'>, tenant: Tenant, ticket: string, nowMs: number): Promise<boolean> {
  const now = isoAt(nowMs);
  const hash = secretHash(ticket);
  if (!(await stores.oneTimeUses.used(tenant.id, ISSUED, hash, now))) return false;
  return stores.oneTimeUses.use(tenant.id, SPENT, hash, isoAt(nowMs + SETUP_LINK_LIFETIME_MS), now);
}
