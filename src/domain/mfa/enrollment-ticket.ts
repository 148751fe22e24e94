/**
 * MFA enrollment tickets (POST /api/v2/guardian/enrollments/ticket): the
 * ticket is sealed with the master key under a context naming the tenant and
 * this one purpose, and carries the user, its expiry (`mfa_enrollment_ticket`
 * lifetime) and an id; nothing is stored until it is used, and completing an
 * enrolment spends it (one_time_uses by its id), so a ticket enrols once.
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import { lifetimeOf } from '../lifetimes.js';
import { secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import type { OneTimeUseStore } from '../one-time-use/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export interface EnrollmentTicket {
  /** The user. */
  sub: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** The ticket_id. */
  jti: string;
}

const context = (tenant: Tenant) => `mfa_enrollment_ticket:${tenant.id}`;
const PURPOSE = 'mfa_enrollment_ticket';

/** What enrolment tickets touch. */
export interface EnrollmentTicketContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore };
}

/** A new ticket for the user: the sealed value for the URL, and its id. */
export function issueEnrollmentTicket(ctx: EnrollmentTicketContext, tenant: Tenant, userId: string): { ticket: string; id: string } {
  const claims: EnrollmentTicket = { sub: userId, exp: ctx.now() + lifetimeOf(tenant, 'mfa_enrollment_ticket') * 1000, jti: randomBytes(16).toString('base64url') };
  return { ticket: ctx.box.seal(JSON.stringify(claims), context(tenant)), id: claims.jti };
}

/** The ticket's claims while it opens, is unexpired and unspent; undefined otherwise. */
export async function openEnrollmentTicket(ctx: EnrollmentTicketContext, tenant: Tenant, ticket: string): Promise<EnrollmentTicket | undefined> {
  let claims: EnrollmentTicket;
  try {
    claims = JSON.parse(ctx.box.openString(ticket, context(tenant))) as EnrollmentTicket;
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || typeof claims.jti !== 'string' || claims.exp <= ctx.now()) return undefined;
  if (await ctx.stores.oneTimeUses.used(tenant.id, PURPOSE, secretHash(claims.jti), isoAt(ctx.now()))) return undefined;
  return claims;
}

/** Spends the ticket; false when it was already spent (of two concurrent calls one gets true). */
export function spendEnrollmentTicket(ctx: EnrollmentTicketContext, tenant: Tenant, claims: EnrollmentTicket): Promise<boolean> {
  return ctx.stores.oneTimeUses.use(tenant.id, PURPOSE, secretHash(claims.jti), isoAt(claims.exp), isoAt(ctx.now()));
}
