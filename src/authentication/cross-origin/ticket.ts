/**
 * The login tickets of cross-origin authentication (auth0.js's
 * web-auth/cross-origin-authentication.js; wire notes §15): POST
 * /co/authenticate checks the credentials and answers `{login_ticket,
 * co_verifier, co_id}`; the application then sends the browser to
 * /authorize with `login_ticket`, which logs the user in there.
 *
 * - The ticket is sealed (AES-256-GCM under the master key, ../../platform/crypto/secret-box.ts)
 *   with the tenant in its associated data: it names the client, the
 *   connection (realm), the user, the `co_id` and the SHA-256 of the
 *   `co_verifier`, and ends after the tenant's `login_ticket` lifetime. It is
 *   opaque to the page and cannot be made or changed without the key.
 * - It is redeemed once (the one-time-use store, shared by every process),
 *   only for the client it was issued to, and only with the realm (or
 *   `connection`) it was issued for when /authorize names one.
 * - It works only in the browser that logged in: /co/authenticate sets the
 *   verifier in the `__Host-gh_co` cookie (../cookies.ts), and /authorize
 *   compares it with the ticket's hash. A browser that did not keep the
 *   cookie (third-party cookies blocked) gets the verification page
 *   (./verify.ts), which asks the application's `cross_origin_loc` for the
 *   verifier auth0.js kept under `co_id`.
 */
import type { FastifyReply } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { appendCookie, CO_VERIFIER_COOKIE, readCookie } from '../cookies.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** What a sealed ticket holds. */
export interface LoginTicket {
  /** Random: the one-time-use record is keyed by it. */
  jti: string;
  client_id: string;
  connection: string;
  user_id: string;
  co_id: string;
  /** SHA-256 of the co_verifier. */
  verifier_hash: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

/** The longest ticket accepted (a sealed ticket is a few hundred characters). */
const MAX_TICKET_LENGTH = 2048;

const PURPOSE = 'co_login_ticket';

const sealContext = (tenant: Tenant) => `gatehouse co login_ticket ${tenant.id}`;

/** What login tickets touch. */
export interface LoginTicketContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore };
}

/** The body /co/authenticate answers, and the verifier cookie set on the reply. */
export function issueLoginTicket(
  ctx: LoginTicketContext,
  tenant: Tenant,
  reply: FastifyReply,
  login: { client_id: string; connection: string; user_id: string },
): { login_ticket: string; co_verifier: string; co_id: string } {
  const lifetime = lifetimeOf(tenant, 'login_ticket');
  const coVerifier = newSecret();
  const coId = newSecret().slice(0, 16);
  const ticket: LoginTicket = {
    jti: newSecret(),
    ...login,
    co_id: coId,
    verifier_hash: secretHash(coVerifier),
    expires_at: ctx.now() + lifetime * 1000,
  };
  appendCookie(reply, verifierCookie(coVerifier, lifetime));
  return { login_ticket: ctx.box.seal(JSON.stringify(ticket), sealContext(tenant)), co_verifier: coVerifier, co_id: coId };
}

/** The verifier cookie (../cookies.ts): sent back with a credentialed cross-site request, so SameSite=None. */
export function verifierCookie(verifier: string, maxAgeSeconds: number): string {
  return `${CO_VERIFIER_COOKIE}=${verifier}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=None`;
}

/** The ticket's content when it is one of this tenant's and has not expired; undefined otherwise (nothing is spent). */
export function openLoginTicket(ctx: LoginTicketContext, tenant: Tenant, sealed: string): LoginTicket | undefined {
  if (sealed.length === 0 || sealed.length > MAX_TICKET_LENGTH) return undefined;
  let ticket: LoginTicket;
  try {
    ticket = JSON.parse(ctx.box.openString(sealed, sealContext(tenant))) as LoginTicket;
  } catch {
    return undefined;
  }
  return ctx.now() < ticket.expires_at ? ticket : undefined;
}

/** Why a ticket cannot be redeemed for this request; undefined when it can (before the verifier is looked at). */
export function ticketMismatch(ticket: LoginTicket, client: IssuanceClient, realm: string | undefined): string | undefined {
  if (ticket.client_id !== client.row.client_id) return 'The login ticket was issued to another client.';
  if (realm !== undefined && realm !== ticket.connection) return 'The login ticket was issued for another connection.';
  return undefined;
}

/** Whether this verifier (the cookie's, or the one the verification page obtained) is the ticket's. */
export function verifierMatches(ticket: LoginTicket, verifier: string | undefined): boolean {
  return verifier !== undefined && verifier.length <= 100 && secretHash(verifier) === ticket.verifier_hash;
}

/** The verifier in this Cookie header, if any. */
export function cookieVerifier(cookieHeader: string | undefined): string | undefined {
  return readCookie(cookieHeader, CO_VERIFIER_COOKIE);
}

/** Spends the ticket: of two redemptions (in any process) only one gets true. */
export function spendLoginTicket(ctx: LoginTicketContext, tenant: Tenant, ticket: LoginTicket): Promise<boolean> {
  return ctx.stores.oneTimeUses.use(tenant.id, PURPOSE, secretHash(ticket.jti), isoAt(ticket.expires_at), isoAt(ctx.now()));
}
