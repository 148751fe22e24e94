/**
 * How long a login session lives, from the tenant's settings (the service's
 * `session_lifetime`, `idle_session_lifetime` and their `ephemeral_`
 * variants, in hours; `session_cookie.mode`):
 *
 * - a session ends at the earlier of its absolute end (login + lifetime) and
 *   its idle end (last use + idle lifetime); each use of the session for a
 *   login (single sign-on) moves the idle end;
 * - `session_cookie.mode: non-persistent` makes the cookie a browser-session
 *   cookie (no Max-Age) and applies the ephemeral lifetimes instead.
 *
 * Defaults: the absolute lifetime is Gatehouse's `session` lifetime
 * (src/domain/lifetimes.ts, 3 days, which `settings.lifetimes.session` may
 * override), the idle one the service's 72 hours; ephemeral sessions the
 * service's 72 and 24 hours.
 */
import { lifetimeOf } from '../lifetimes.js';
import type { Tenant } from '../tenants/tenant.js';

export const DEFAULT_IDLE_SESSION_HOURS = 72;
export const DEFAULT_EPHEMERAL_SESSION_HOURS = 72;
export const DEFAULT_IDLE_EPHEMERAL_SESSION_HOURS = 24;

export interface SessionPolicy {
  /** The cookie carries Max-Age (outlives the browser). */
  persistent: boolean;
  /** Seconds from the login to the session's end. */
  absoluteSeconds: number;
  /** Seconds of inactivity that end the session. */
  idleSeconds: number;
}

const seconds = (hours: number) => Math.round(hours * 3600);

/** The session lifetimes the tenant's settings give (see the file comment). */
export function sessionPolicy(tenant: Pick<Tenant, 'settings'>): SessionPolicy {
  const s = tenant.settings;
  if (s.session_cookie?.mode === 'non-persistent') {
    return {
      persistent: false,
      absoluteSeconds: seconds(s.ephemeral_session_lifetime ?? DEFAULT_EPHEMERAL_SESSION_HOURS),
      idleSeconds: seconds(s.idle_ephemeral_session_lifetime ?? DEFAULT_IDLE_EPHEMERAL_SESSION_HOURS),
    };
  }
  return {
    persistent: true,
    absoluteSeconds: s.session_lifetime !== undefined ? seconds(s.session_lifetime) : lifetimeOf(tenant, 'session'),
    idleSeconds: seconds(s.idle_session_lifetime ?? DEFAULT_IDLE_SESSION_HOURS),
  };
}

/** When a session created at `createdAt` and last used at `lastUsedAt` (epoch ms) ends under `policy` (epoch ms). */
export function sessionEnd(policy: SessionPolicy, createdAt: number, lastUsedAt: number): number {
  return Math.min(createdAt + policy.absoluteSeconds * 1000, lastUsedAt + policy.idleSeconds * 1000);
}
