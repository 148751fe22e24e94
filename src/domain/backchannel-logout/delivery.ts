/**
 * Delivering the queued back-channel logout notifications (OpenID Connect
 * Back-Channel Logout 1.0 §2.5-2.8): each due row is claimed (a lease, so
 * that processes sharing a database do not post it twice, and a process that
 * dies mid-attempt leaves it to another), a logout token is signed for the
 * attempt and POSTed form-encoded as `logout_token`; a 2xx answer
 * (§2.8: 200 or 204) delivers it, anything else (an error status, a refused
 * connection, a timeout) schedules a retry with exponential backoff: 10 s,
 * 20 s, 40 s … capped at an hour, at most 15 attempts (about 13 hours),
 * after which the row is given up. The queue is a table, so a restart loses
 * nothing: the next process picks up where the last one stopped.
 *
 * Each round also sweeps sessions that expired with clients to tell
 * (`session-expired`).
 */
import { isoAt } from '../../platform/clock.js';
import type { BackchannelLogoutDeliveryRow } from '../rows.js';
import type { Tenant } from '../tenants/tenant.js';
import { issueLogoutToken } from '../tokens/logout-token.js';
import { announceSessionsEnded } from './announce.js';
import type { Logger } from 'pino';
import type { BackchannelLogoutStore } from './store.js';
import type { IssuanceLookups } from '../issuance/lookups.js';
import type { Keyring } from '../keys/keyring.js';
import type { TenantService } from '../tenants/service.js';

/** POSTs an `application/x-www-form-urlencoded` body; resolves with the status, rejects when no answer came. */
export type FormPoster = (url: string, body: string) => Promise<number>;

export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_MS = 3_600_000;
export const MAX_ATTEMPTS = 15;
/** How long an attempt may hold its row. */
const LEASE_MS = 60_000;
const BATCH = 50;

export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);
}

export interface DeliveryRound {
  delivered: number;
  failed: number;
  expiredSessions: number;
}

/** What the delivery of logout tokens touches. */
export interface BackchannelDeliveryContext {
  readonly keyring: Keyring;
  readonly logger: Logger;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly tenants: TenantService;
  readonly stores: { readonly backchannelLogout: BackchannelLogoutStore };
}

export class BackchannelLogoutDelivery {
  constructor(
    private readonly ctx: BackchannelDeliveryContext,
    private readonly post: FormPoster,
  ) {}

  /** One round: the expiry sweep, then every due delivery (in batches). */
  async runOnce(): Promise<DeliveryRound> {
    const round: DeliveryRound = { delivered: 0, failed: 0, expiredSessions: await this.sweepExpired() };
    for (;;) {
      const due = await this.ctx.stores.backchannelLogout.due(isoAt(this.ctx.now()), BATCH);
      if (due.length === 0) return round;
      const tenants = new Map((await this.ctx.tenants.list()).map((t) => [t.id, t]));
      const results = await Promise.all(due.map((row) => this.attempt(row, tenants.get(row.tenant_id))));
      for (const result of results) if (result !== undefined) round[result] += 1;
      if (due.length < BATCH) return round;
    }
  }

  private async sweepExpired(): Promise<number> {
    const expired = await this.ctx.stores.backchannelLogout.expiredUnannounced(isoAt(this.ctx.now()), BATCH);
    const byTenant = new Map<string, typeof expired>();
    for (const session of expired) byTenant.set(session.tenant_id, [...(byTenant.get(session.tenant_id) ?? []), session]);
    for (const [tenantId, sessions] of byTenant) await announceSessionsEnded(this.ctx, tenantId, sessions, 'session-expired');
    return expired.length;
  }

  private async attempt(row: BackchannelLogoutDeliveryRow, tenant: Tenant | undefined): Promise<'delivered' | 'failed' | undefined> {
    const store = this.ctx.stores.backchannelLogout;
    const now = this.ctx.now();
    if (!(await store.claim(row.tenant_id, row.id, row.next_attempt_at, isoAt(now + LEASE_MS)))) return undefined;
    const attempts = row.attempts + 1;
    let error: string;
    try {
      if (!tenant) throw new Error('the tenant no longer exists');
      const token = await issueLogoutToken(this.ctx, tenant, { clientId: row.client_id, sub: row.sub, sid: row.sid });
      const status = await this.post(row.url, new URLSearchParams({ logout_token: token }).toString());
      if (status >= 200 && status < 300) {
        await store.delivered(row.tenant_id, row.id, isoAt(this.ctx.now()), attempts);
        return 'delivered';
      }
      error = `HTTP ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const later = this.ctx.now();
    const next = attempts >= MAX_ATTEMPTS ? { gaveUpAt: isoAt(later) } : { nextAttemptAt: isoAt(later + retryDelay(attempts)) };
    await store.failed(row.tenant_id, row.id, attempts, error, next);
    this.ctx.logger.warn({ tenant: row.tenant_id, client: row.client_id, attempts, error, gaveUp: 'gaveUpAt' in next }, 'back-channel logout delivery failed');
    return 'failed';
  }
}
