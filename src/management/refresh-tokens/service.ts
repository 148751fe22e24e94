/**
 * Refresh tokens in the Management API: a user's active tokens (checkpoint
 * pages), one token, its metadata, and revoking them by id, by owner
 * (user, client, audience), or all of a user's. A token here is a family
 * (src/storage/migrations/0008_refresh_tokens.ts): rotation issues a new
 * opaque token but the Management API's id stays, and revoking the id
 * revokes every token of the family.
 *
 * Revocation is a row update in the shared database, and the token endpoint
 * reads the row on every refresh (no cache), so a token revoked here is
 * refused at the next /oauth/token in every process at once. Deletions
 * answer 202 whether or not the token existed, as the document gives them
 * no 404.
 */
import type { RefreshTokenFamily, TokenMetadata } from '../../domain/refresh-tokens/rows.js';
import type { RefreshTokenOwner, RefreshTokenStore } from '../../domain/refresh-tokens/store.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { REFRESH_TOKEN_DEFAULT } from '../../domain/clients/model.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import { selectFields, fieldSelection } from '../fields.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import { userNotFound } from '../users/service.js';

export interface RefreshToken {
  id: string;
  user_id: string;
  created_at: string | null;
  idle_expires_at: string | null;
  expires_at: string | null;
  client_id: string;
  session_id: string | null;
  rotating: boolean;
  resource_servers: { audience: string; scopes: string }[];
  refresh_token_metadata?: TokenMetadata | null;
  last_exchanged_at: string | null;
}

export const refreshTokenNotFound = () => managementErrors.notFound('The refresh token does not exist.');

/** What RefreshTokenService touches. */
export interface RefreshTokenServiceContext extends CheckpointSealing {
  readonly stores: { readonly refreshTokens: RefreshTokenStore; readonly users: UserStore; readonly clients: ClientStore };
}

/** The document's combinations of POST /refresh-tokens/revoke: ids alone, or user_id [+ client_id [+ audience]]. */
export type RevokeRequest = { ids?: string[]; user_id?: string; client_id?: string; audience?: string };

function revokeTarget(body: RevokeRequest): { ids: string[] } | { owner: RefreshTokenOwner } {
  const invalid = (why: string) => managementErrors.invalidBody(`Payload validation error: '${why}'.`);
  if (body.ids !== undefined) {
    if (body.user_id !== undefined || body.client_id !== undefined || body.audience !== undefined) throw invalid('ids cannot be combined with user_id, client_id or audience');
    return { ids: body.ids };
  }
  if (body.user_id === undefined) throw invalid(body.client_id !== undefined ? 'client_id must be paired with user_id' : 'One of ids or user_id is required');
  if (body.audience !== undefined && body.client_id === undefined) throw invalid('audience requires both user_id and client_id');
  return { owner: { userId: body.user_id, ...(body.client_id !== undefined && { clientId: body.client_id }), ...(body.audience !== undefined && { audience: body.audience }) } };
}

export class RefreshTokenService {
  constructor(private readonly ctx: RefreshTokenServiceContext) {}

  private async toApi(tenant: Tenant, families: RefreshTokenFamily[]): Promise<RefreshToken[]> {
    const rotating = new Map<string, boolean>();
    for (const clientId of new Set(families.map((f) => f.client_id))) {
      const client = await this.ctx.stores.clients.get(tenant.id, clientId);
      const settings = { ...REFRESH_TOKEN_DEFAULT, ...((client?.config as { refresh_token?: { rotation_type?: string } | null } | undefined)?.refresh_token ?? {}) };
      rotating.set(clientId, settings.rotation_type === 'rotating');
    }
    return families.map((f) => ({
      id: f.family_id,
      user_id: f.user_id,
      created_at: f.created_at,
      idle_expires_at: f.idle_expires_at,
      expires_at: f.expires_at,
      client_id: f.client_id,
      session_id: f.session_id,
      rotating: f.rotated || rotating.get(f.client_id) === true,
      resource_servers: f.audience === null ? [] : [{ audience: f.audience, scopes: f.scope }],
      ...(f.metadata !== null && { refresh_token_metadata: f.metadata }),
      last_exchanged_at: f.last_used_at,
    }));
  }

  private async requireUser(tenant: Tenant, userId: string): Promise<void> {
    if (!(await this.ctx.stores.users.get(tenant.id, userId))) throw userNotFound();
  }

  private async page<K extends string>(tenant: Tenant, key: K, owner: RefreshTokenOwner, query: { from?: string; take?: number }): Promise<CheckpointList<K, RefreshToken>> {
    await this.requireUser(tenant, owner.userId);
    const scope = `${tenant.id}:refresh-tokens:${owner.userId}:${owner.clientId ?? ''}`;
    const now = isoAt(this.ctx.now());
    const paging = checkpointPaging(this.ctx, query, scope);
    const list = await checkpointPage(this.ctx, scope, key, paging, (window) => this.ctx.stores.refreshTokens.activeFamilies(tenant.id, owner, now, window), (f) => f.family_id, (f) => f);
    return { ...list, [key]: await this.toApi(tenant, list[key]) } as CheckpointList<K, RefreshToken>;
  }

  /** GET /refresh-tokens: the user's (and client's) tokens, `fields` applied. */
  async list(tenant: Tenant, query: { user_id: string; client_id?: string; from?: string; take?: number; fields?: string; include_fields?: boolean }) {
    const list = await this.page(tenant, 'refresh_tokens', { userId: query.user_id, ...(query.client_id !== undefined && { clientId: query.client_id }) }, query);
    const selection = fieldSelection(query);
    return { ...list, refresh_tokens: list.refresh_tokens.map((token) => selectFields(token, selection)) };
  }

  /** GET /users/{user_id}/refresh-tokens → `{tokens, next?}`. */
  listForUser(tenant: Tenant, userId: string, query: { from?: string; take?: number }): Promise<CheckpointList<'tokens', RefreshToken>> {
    return this.page(tenant, 'tokens', { userId }, query);
  }

  /** The user's active tokens (of one client when given), the first `limit` by id: device credentials list them. */
  async allForUser(tenant: Tenant, owner: RefreshTokenOwner, limit: number): Promise<RefreshToken[]> {
    return this.toApi(tenant, await this.ctx.stores.refreshTokens.activeFamilies(tenant.id, owner, isoAt(this.ctx.now()), { limit }));
  }

  async get(tenant: Tenant, id: string): Promise<RefreshToken> {
    const family = await this.ctx.stores.refreshTokens.findFamily(tenant.id, id, isoAt(this.ctx.now()));
    if (!family) throw refreshTokenNotFound();
    return (await this.toApi(tenant, [family]))[0]!;
  }

  /** PATCH: `refresh_token_metadata` replaced; null or {} removes it. */
  async update(tenant: Tenant, id: string, metadata: TokenMetadata | null): Promise<RefreshToken> {
    await this.get(tenant, id);
    const next = metadata === null || Object.keys(metadata).length === 0 ? null : metadata;
    if (!(await this.ctx.stores.refreshTokens.setFamilyMetadata(tenant.id, id, next))) throw refreshTokenNotFound();
    return this.get(tenant, id);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    await this.ctx.stores.refreshTokens.revokeFamilies(tenant.id, [id], isoAt(this.ctx.now()));
  }

  async revoke(tenant: Tenant, body: RevokeRequest): Promise<void> {
    const target = revokeTarget(body);
    const now = isoAt(this.ctx.now());
    if ('ids' in target) await this.ctx.stores.refreshTokens.revokeFamilies(tenant.id, target.ids, now);
    else await this.ctx.stores.refreshTokens.revokeOwned(tenant.id, target.owner, now);
  }

  async deleteForUser(tenant: Tenant, userId: string): Promise<void> {
    await this.requireUser(tenant, userId);
    await this.ctx.stores.refreshTokens.revokeOwned(tenant.id, { userId }, isoAt(this.ctx.now()));
  }
}
