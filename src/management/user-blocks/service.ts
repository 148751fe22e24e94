/**
 * Brute-force blocks as the Management API shows them (/api/v2/user-blocks).
 * The blocks themselves live in the brute-force protection (ctx.bruteForce),
 * keyed by the identifier a login sent; a user's blocks are those of the
 * user's email and username (the identifiers the password grants accept, both
 * compared lower-cased) in the user's own connection, since the same address
 * in another connection is another user.
 *
 * Only brute-force blocks: the administrator's `blocked` flag is the users
 * API's (OpenAPI note on both DELETE operations).
 */
import type { BruteForceProtection, UserBlock } from '../../domain/brute-force.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { userNotFound } from '../users/service.js';
import { type UserStore, type UserWithConnection } from '../../domain/users/store.js';
import { attackProtection } from '../../domain/attack-protection/settings.js';

/** The tenant's brute-force settings, under which a block is in force. */
const policyOf = (tenant: Tenant) => attackProtection(tenant.settings, 'brute_force_protection');

/** The identifiers logins of this user are counted under. */
function loginIdentifiers(user: UserWithConnection): string[] {
  const identifiers = [user.email_lower, user.username_lower].filter((value): value is string => value !== null);
  return [...new Set(identifiers)];
}

/** What UserBlockService touches. */
export interface UserBlockServiceContext {
  readonly bruteForce: BruteForceProtection;
  readonly stores: { readonly users: UserStore };
}

export class UserBlockService {
  readonly #blocks: BruteForceProtection;
  readonly #users: UserStore;

  constructor(ctx: UserBlockServiceContext) {
    this.#blocks = ctx.bruteForce;
    this.#users = ctx.stores.users;
  }

  byIdentifier(tenant: Tenant, identifier: string): Promise<UserBlock[]> {
    return this.#blocks.blocks(tenant.id, identifier, policyOf(tenant));
  }

  unblockIdentifier(tenant: Tenant, identifier: string): Promise<void> {
    return this.#blocks.unblock(tenant.id, identifier);
  }

  /** The blocks of the user's email and username in the user's connection; 404 for an unknown user. */
  async byUserId(tenant: Tenant, userId: string): Promise<UserBlock[]> {
    const user = await this.#user(tenant, userId);
    const blocks: UserBlock[] = [];
    for (const identifier of loginIdentifiers(user)) blocks.push(...(await this.#blocks.blocks(tenant.id, identifier, policyOf(tenant), user.connection_name)));
    return blocks;
  }

  /** Removes those blocks; 404 for an unknown user. */
  async unblockUserId(tenant: Tenant, userId: string): Promise<void> {
    const user = await this.#user(tenant, userId);
    for (const identifier of loginIdentifiers(user)) await this.#blocks.unblock(tenant.id, identifier, user.connection_name);
  }

  async #user(tenant: Tenant, userId: string): Promise<UserWithConnection> {
    const user = await this.#users.get(tenant.id, userId);
    if (!user) throw userNotFound();
    return user;
  }
}
