/**
 * SSO sessions in the Management API: a user's active sessions (checkpoint
 * pages by id), one session, and ending them. Ending one is revoking it and
 * queueing the back-channel logout of the clients it issued tokens to
 * (`session-revoked`); the service answers 202 (accepted) as it does.
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
}

const sessionNotFound = () => managementErrors.notFound('The session does not exist.');

/** What SessionService touches. */
export interface SessionServiceContext extends CheckpointSealing, UserSessionsEnding {
  readonly now: () => number;
  readonly stores: UserSessionsEnding['stores'] & {
    readonly backchannelLogout: BackchannelLogoutStore;
    readonly sessions: SessionStore;
    readonly users: UserStore;
  };
}

export class SessionService {
  constructor(private readonly ctx: SessionServiceContext) {}

  private async toApi(tenant: Tenant, rows: SessionRow[]): Promise<Session[]> {
    const clients = await this.ctx.stores.backchannelLogout.clientsOf(tenant.id, rows.map((r) => r.id_hash));
    const policy = sessionPolicy(tenant);
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
}
