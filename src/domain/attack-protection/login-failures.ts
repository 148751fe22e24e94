/**
 * A password login attempt under the tenant's brute-force settings, and what
 * a failure does: it is counted (../brute-force.ts), and the failure that
 * reaches `max_attempts` tells the account's owner by email when `shields`
 * has `user_notification` (the tenant's `blocked_account` template, or
 * Gatehouse's wording). Only an existing account with an email address is
 * told; an unknown identifier gets no mail.
 */
import type { LoginAttemptKey, BruteForceProtection } from '../brute-force.js';
import { sendTenantMail, userVariables, type TenantMailContext } from '../email/templates.js';
import type { Tenant } from '../tenants/tenant.js';
import { attackProtection } from './settings.js';
import type { UserStore } from '../users/store.js';

/** The attempt's key, with the tenant's brute-force settings in effect. */
export function loginAttempt(tenant: Tenant, connection: string, identifier: string, ip: string): LoginAttemptKey {
  return { tenantId: tenant.id, connection, identifier, ip, policy: attackProtection(tenant.settings, 'brute_force_protection') };
}

/** What counting a failed login touches. */
export interface LoginFailureContext extends TenantMailContext {
  readonly bruteForce: BruteForceProtection;
  readonly stores: TenantMailContext['stores'] & { readonly users: UserStore };
}

/** Counts a failed password check; notifies the account's owner when it reached the limit and the settings ask for it. */
export async function recordLoginFailure(ctx: LoginFailureContext, tenant: Tenant, connectionId: string, attempt: LoginAttemptKey): Promise<void> {
  const reached = await ctx.bruteForce.recordFailure(attempt);
  if (!reached || !attempt.policy.shields.includes('user_notification')) return;
  const user = await ctx.stores.users.findByLoginIdentifier(tenant.id, connectionId, attempt.identifier.toLowerCase());
  if (!user?.email) return;
  const blocking = attempt.policy.shields.includes('block');
  await sendTenantMail(
    ctx,
    tenant,
    'blocked_account',
    user.email,
    {
      subject: `Unusual login attempts on your ${tenant.name} account`,
      text:
        `There were ${attempt.policy.max_attempts} failed attempts in a row to log in to your account from the address ${attempt.ip}.\n\n` +
        (blocking ? 'Further attempts from there are blocked for up to an hour, or until an administrator lifts the block. ' : '') +
        `If this was not you, consider changing your password.\n`,
    },
    { user: userVariables(user), connection: { name: attempt.connection }, source_ip: attempt.ip },
  );
}
