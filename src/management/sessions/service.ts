/**
 * SSO sessions in the Management API: a user's active sessions (checkpoint
 * pages by id), one session, and ending them. Ending one is revoking it and
 * queueing the back-channel logout of the clients it issued tokens to
 * (`session-revoked`); the service answers 202 (accepted) as it does.
 * Revoking (POST /sessions/{id}/revoke, POST /users/{id}/revoke-access) ends
 * the session the same way and revokes the refresh tokens its login started
 * (unless `preserve_refresh_tokens`). Both are row updates in the shared
 * database, read by every process on each use (no cache): the session's
 * cookie and the tokens are refused at once everywhere.
 */
import { announceSessionsEnded, endUserSessions, type UserSessionsEnding } from '../../domain/backchannel-logout/announce.js';
import type { SessionRow } from '../../domain/rows.js';
import { sessionPolicy } from '../../domain/sessions/policy.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import { userNotFound } from '../users/service.js';
import type { BackchannelLogoutStore } from '../../domain/backchannel-logout/store.js';
import type { SessionStore } from '../../domain/sessions/store.js';
import type { RefreshTokenStore } from '../../domain/refresh-tokens/store.js';
import type { TokenMetadata } from '../../domain/refresh-tokens/rows.js';
import type { UserStore } from '../../domain/users/store.js';

export interface Session {
  id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  authenticated_at: string;
  idle_expires_at: string;
  expires_at: string;
  last_interacted_at: string;
  clients: { client_id: string }[];
  authentication: { methods: { name: string; timestamp: string }[] };
  session_metadata?: TokenMetadata;
}

const sessionNotFound = () => managementErrors.notFound('The session does not exist.');

/** What SessionService touches. */
export interface SessionServiceContext extends CheckpointSealing, UserSessionsEnding {
  readonly now: () => number;
  readonly stores: UserSessionsEnding['stores'] & {
    readonly backchannelLogout: BackchannelLogoutStore;
    readonly sessions: SessionStore;
    readonly users: UserStore;
    readonly refreshTokens: RefreshTokenStore;
  };
}

export class SessionService {
  constructor(private readonly ctx: SessionServiceContext) {}

  private async toApi(tenant: Tenant, rows: SessionRow[]): Promise<Session[]> {
    const clients = await this.ctx.stores.backchannelLogout.clientsOf(tenant.id, rows.map((r) => r.id_hash));
    const policy = sessionPolicy(tenant);
    const metadata = await this.ctx.stores.sessions.metadata(tenant.id, rows.map((r) => r.id_hash));
    return rows.map((row) => {
      const authenticatedAt = isoAt(row.auth_time * 1000);
      const lastInteractedAt = row.last_interacted_at ?? row.created_at;
      const createdAt = Date.parse(row.created_at);
      return {
        id: row.id_hash,
        user_id: row.user_id,
        created_at: row.created_at,
        updated_at: lastInteractedAt,
        authenticated_at: authenticatedAt,
        // The tenant's lifetimes of the moment (src/domain/sessions/policy.ts), as the SSO cookie is checked.
        idle_expires_at: isoAt(Date.parse(lastInteractedAt) + policy.idleSeconds * 1000),
        expires_at: isoAt(createdAt + policy.absoluteSeconds * 1000),
        last_interacted_at: lastInteractedAt,
        clients: clients.filter((c) => c.session_id === row.id_hash).map((c) => ({ client_id: c.client_id })),
        // Gatehouse's logins are passwords: `pwd`, at the login.
        authentication: { methods: [{ name: 'pwd', timestamp: authenticatedAt }] },
        ...(metadata.has(row.id_hash) && { session_metadata: metadata.get(row.id_hash)! }),
      };
    });
  }

  private async requireUser(tenant: Tenant, userId: string): Promise<void> {
    if (!(await this.ctx.stores.users.get(tenant.id, userId))) throw userNotFound();
  }

  async listForUser(tenant: Tenant, userId: string, query: { from?: string; take?: number }): Promise<CheckpointList<'sessions', Session>> {
    await this.requireUser(tenant, userId);
    const now = isoAt(this.ctx.now());
    const paging = checkpointPaging(this.ctx, query, `${tenant.id}:sessions:${userId}`);
    const list = await checkpointPage(this.ctx, `${tenant.id}:sessions:${userId}`, 'sessions', paging, (window) => this.ctx.stores.sessions.activeForUser(tenant.id, userId, now, window), (row) => row.id_hash, (row) => row);
    return { ...list, sessions: await this.toApi(tenant, list.sessions) };
  }

  async get(tenant: Tenant, id: string): Promise<Session> {
    const row = await this.ctx.stores.sessions.findActive(tenant.id, id, isoAt(this.ctx.now()));
    if (!row) throw sessionNotFound();
    return (await this.toApi(tenant, [row]))[0]!;
  }

  /** Ends the session (an unknown or ended one is accepted too: the end is what was asked for). */
  async delete(tenant: Tenant, id: string): Promise<void> {
    const now = isoAt(this.ctx.now());
    const row = await this.ctx.stores.sessions.findActive(tenant.id, id, now);
    if (!row) return;
    await this.ctx.stores.sessions.revoke(tenant.id, id, now);
    await announceSessionsEnded(this.ctx, tenant.id, [row], 'session-revoked');
  }

  async deleteForUser(tenant: Tenant, userId: string): Promise<void> {
    await this.requireUser(tenant, userId);
    await endUserSessions(this.ctx, tenant.id, userId, 'session-revoked', { revoke: true });
  }

  /** PATCH: `session_metadata` replaced; null or {} removes it. */
  async update(tenant: Tenant, id: string, metadata: TokenMetadata | null): Promise<Session> {
    const next = metadata === null || Object.keys(metadata).length === 0 ? null : metadata;
    if (!(await this.ctx.stores.sessions.setMetadata(tenant.id, id, next, isoAt(this.ctx.now())))) throw sessionNotFound();
    return this.get(tenant, id);
  }

  /** POST /sessions/{id}/revoke: ends an active session (404 otherwise) and revokes the refresh tokens it started. */
  async revoke(tenant: Tenant, id: string, options: { preserveRefreshTokens?: boolean } = {}): Promise<void> {
    const now = isoAt(this.ctx.now());
    const row = await this.ctx.stores.sessions.findActive(tenant.id, id, now);
    if (!row) throw sessionNotFound();
    await this.end(tenant, row, now, options);
  }

  private async end(tenant: Tenant, row: SessionRow, now: string, options: { preserveRefreshTokens?: boolean }): Promise<void> {
    if (!options.preserveRefreshTokens) await this.ctx.stores.refreshTokens.revokeForSession(tenant.id, row.id_hash, now);
    if (await this.ctx.stores.sessions.revoke(tenant.id, row.id_hash, now)) await announceSessionsEnded(this.ctx, tenant.id, [row], 'session-revoked');
  }

  /**
   * POST /users/{id}/revoke-access: one session of the user (`session_id`)
   * or all of them, with the refresh tokens they started; without a
   * `session_id` and without `preserve_refresh_tokens`, every refresh token
   * of the user. A session that is not the user's, or not active, is
   * accepted with nothing done, as a deletion is.
   */
  async revokeAccess(tenant: Tenant, userId: string, body: { session_id?: string; preserve_refresh_tokens?: boolean }): Promise<void> {
    const now = isoAt(this.ctx.now());
    const options = { ...(body.preserve_refresh_tokens !== undefined && { preserveRefreshTokens: body.preserve_refresh_tokens }) };
    if (body.session_id !== undefined) {
      const row = await this.ctx.stores.sessions.findActive(tenant.id, body.session_id, now);
      if (row && row.user_id === userId) await this.end(tenant, row, now, options);
      return;
    }
    for (let after: string | undefined; ; ) {
      const page = await this.ctx.stores.sessions.activeForUser(tenant.id, userId, now, { ...(after !== undefined && { after }), limit: 500 });
      for (const row of page) await this.end(tenant, row, now, options);
      if (page.length < 500) break;
      after = page.at(-1)!.id_hash;
    }
    if (!body.preserve_refresh_tokens) await this.ctx.stores.refreshTokens.revokeOwned(tenant.id, { userId }, now);
  }
}
