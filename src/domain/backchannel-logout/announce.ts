/**
 * Announcing the end of SSO sessions to the clients they issued tokens to
 * (OpenID Connect Back-Channel Logout 1.0 §2.5): for each session ended
 * (once: the store marks it), each of its clients whose `oidc_logout` has a
 * `backchannel_logout_urls` entry and whose `backchannel_logout_initiators`
 * take this kind of end gets a delivery queued. Without
 * `backchannel_logout_initiators` a client hears of logouts (`rp-logout`,
 * `idp-logout`) only, Gatehouse's reading of the service's default (README).
 *
 * Called where sessions end: /v2/logout and /oidc/logout (`rp-logout`), the
 * Management API's session deletions (`session-revoked`) and user deletion
 * (`account-deleted`), a new password (`password-changed`), and the expiry
 * sweep (`session-expired`).
 */
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { isoAt } from '../../platform/clock.js';
import type { IssuanceLookups } from '../issuance/lookups.js';
import type { BackchannelLogoutDeliveryRow, LogoutInitiator } from '../rows.js';
import type { Stores } from '../stores.js';
import type { EndedSession } from './store.js';

const DEFAULT_INITIATORS: ReadonlySet<string> = new Set(['rp-logout', 'idp-logout']);

interface OidcLogout {
  backchannel_logout_urls?: unknown;
  backchannel_logout_initiators?: { mode?: unknown; selected_initiators?: unknown };
}

/** Where the client hears of session ends of this kind, or undefined. */
export function backchannelUrl(config: Record<string, unknown>, initiator: LogoutInitiator): string | undefined {
  const settings = config.oidc_logout as OidcLogout | null | undefined;
  const urls = Array.isArray(settings?.backchannel_logout_urls) ? settings.backchannel_logout_urls.filter((u): u is string => typeof u === 'string' && u !== '') : [];
  if (urls.length === 0) return undefined;
  const initiators = settings?.backchannel_logout_initiators;
  if (initiators?.mode === 'all') return urls[0];
  const selected = initiators && Array.isArray(initiators.selected_initiators) ? new Set(initiators.selected_initiators) : DEFAULT_INITIATORS;
  return selected.has(initiator) ? urls[0] : undefined;
}

/** Queues the notifications of the sessions' end; returns how many were queued. */
/** What announcing ended sessions touches. */
export interface SessionsEndedAnnouncing {
  stores: Pick<Stores, 'backchannelLogout'>;
  lookups: Pick<IssuanceLookups, 'client'>;
  now: () => number;
}

/** What ending a user's sessions touches. */
export interface UserSessionsEnding extends SessionsEndedAnnouncing {
  stores: Pick<Stores, 'backchannelLogout' | 'sessions'>;
}

export async function announceSessionsEnded(
  deps: SessionsEndedAnnouncing,
  tenantId: string,
  sessions: readonly EndedSession[],
  initiator: LogoutInitiator,
): Promise<number> {
  if (sessions.length === 0) return 0;
  const store = deps.stores.backchannelLogout;
  const now = isoAt(deps.now());
  const ended = new Set(await store.markEnded(tenantId, sessions.map((s) => s.id_hash), now));
  if (ended.size === 0) return 0;
  const users = new Map(sessions.map((s) => [s.id_hash, s.user_id]));
  const rows: BackchannelLogoutDeliveryRow[] = [];
  for (const { session_id, client_id } of await store.clientsOf(tenantId, [...ended])) {
    const client = await deps.lookups.client(tenantId, client_id);
    const url = client && backchannelUrl(client.row.config, initiator);
    if (!url) continue;
    rows.push({
      tenant_id: tenantId,
      id: newPrefixedId('bcl'),
      client_id,
      url,
      sid: session_id,
      sub: users.get(session_id)!,
      initiator,
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      delivered_at: null,
      gave_up_at: null,
      last_error: null,
    });
  }
  await store.enqueue(rows);
  return rows.length;
}

/**
 * Ends every active session of the user (revoking them unless the user is
 * about to go, taking them along) and queues their announcement; returns how
 * many sessions there were.
 */
export async function endUserSessions(
  deps: UserSessionsEnding,
  tenantId: string,
  userId: string,
  initiator: LogoutInitiator,
  options: { revoke: boolean },
): Promise<number> {
  const now = isoAt(deps.now());
  const sessions: EndedSession[] = [];
  for (let after: string | undefined; ; ) {
    const page = await deps.stores.sessions.activeForUser(tenantId, userId, now, { ...(after !== undefined && { after }), limit: 500 });
    sessions.push(...page);
    if (page.length < 500) break;
    after = page.at(-1)!.id_hash;
  }
  if (options.revoke) await deps.stores.sessions.revokeForUser(tenantId, userId, now);
  await announceSessionsEnded(deps, tenantId, sessions, initiator);
  return sessions.length;
}
