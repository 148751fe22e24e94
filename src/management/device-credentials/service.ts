/**
 * Device credentials (GET/POST/DELETE /api/v2/device-credentials): the
 * public keys native applications register for their user's device, and the
 * user's refresh tokens seen as credentials (`refresh_token`, or
 * `rotating_refresh_token` for a rotating family), ids as in
 * /refresh-tokens. A public key is registered by the user's own token
 * (`create:current_user_device_credentials`); Gatehouse stores and lists it
 * but offers no grant that signs with it. Lists hold at most the first 1000
 * credentials, as the service says, paged by offset.
 *
 * DELETE answers 204 for an id the tenant does not have (the document gives
 * the operation no 404): a public key is deleted, a refresh token revoked
 * with its family. A user's own token deletes only its own credentials.
 */
import type { DeviceCredentialRow } from '../../domain/device-credentials/rows.js';
import type { DeviceCredentialStore } from '../../domain/device-credentials/store.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import type { ManagementPrincipal } from '../auth.js';
import { fieldSelection, selectFields } from '../fields.js';
import { offsetList, offsetPaging, type OffsetList } from '../lists.js';
import { checkOffsetWindow } from '../paging.js';
import type { RefreshTokenService } from '../refresh-tokens/service.js';
import type { DEVICE_CREDENTIAL_TYPES } from './schema.js';

type CredentialType = (typeof DEVICE_CREDENTIAL_TYPES)[number];

export interface DeviceCredential {
  id: string;
  device_name?: string;
  device_id?: string;
  type: CredentialType;
  user_id: string;
  client_id: string;
}

/** The service's limit on what the list reaches. */
const LIST_LIMIT = 1000;

export interface DeviceCredentialServiceContext {
  readonly now: () => number;
  readonly stores: { readonly deviceCredentials: DeviceCredentialStore; readonly users: UserStore; readonly clients: ClientStore };
}

export interface ListQuery {
  page?: number;
  per_page?: number;
  include_totals?: boolean;
  fields?: string;
  include_fields?: boolean;
  user_id?: string;
  client_id?: string;
  type?: CredentialType;
}

const fromRow = (row: DeviceCredentialRow): DeviceCredential => ({ id: row.id, device_name: row.device_name, device_id: row.device_id, type: row.type, user_id: row.user_id, client_id: row.client_id });

const cannotCreate = () => new ManagementError(403, 'Cannot create device credentials for that user.', 'insufficient_scope');

export class DeviceCredentialService {
  constructor(
    private readonly ctx: DeviceCredentialServiceContext,
    private readonly refreshTokens: RefreshTokenService,
  ) {}

  private async refreshTokenCredentials(tenant: Tenant, query: ListQuery, types: ReadonlySet<CredentialType>): Promise<DeviceCredential[]> {
    if (query.user_id === undefined) {
      throw managementErrors.badRequest("Query validation error: 'user_id is required to list refresh tokens' on property user_id (user_id of the devices to retrieve).", 'invalid_query_string');
    }
    const owner = { userId: query.user_id, ...(query.client_id !== undefined && { clientId: query.client_id }) };
    const tokens = await this.refreshTokens.allForUser(tenant, owner, LIST_LIMIT);
    return tokens
      .map((t): DeviceCredential => ({ id: t.id, type: t.rotating ? 'rotating_refresh_token' : 'refresh_token', user_id: t.user_id, client_id: t.client_id }))
      .filter((c) => types.has(c.type));
  }

  /**
   * `type` filters; without it, paging asks for `refresh_token` (the
   * document's rule) and an unpaged request gets every type.
   */
  async list(tenant: Tenant, query: ListQuery): Promise<OffsetList<'device_credentials', Partial<DeviceCredential>>> {
    const paged = query.page !== undefined || query.per_page !== undefined || query.include_totals !== undefined;
    const types = new Set<CredentialType>(query.type ? [query.type] : paged ? ['refresh_token'] : ['public_key', 'refresh_token', 'rotating_refresh_token']);
    const page = offsetPaging(query);
    checkOffsetWindow(page.page, page.perPage, LIST_LIMIT);
    const credentials: DeviceCredential[] = [];
    if (types.has('public_key')) {
      const filter = { ...(query.user_id !== undefined && { userId: query.user_id }), ...(query.client_id !== undefined && { clientId: query.client_id }) };
      credentials.push(...(await this.ctx.stores.deviceCredentials.list(tenant.id, filter, LIST_LIMIT)).map(fromRow));
    }
    if (types.has('refresh_token') || types.has('rotating_refresh_token')) credentials.push(...(await this.refreshTokenCredentials(tenant, query, types)));
    const reachable = credentials.slice(0, LIST_LIMIT);
    const selection = fieldSelection(query);
    const items = reachable.slice(page.page * page.perPage, (page.page + 1) * page.perPage).map((c) => selectFields(c, selection));
    return offsetList('device_credentials', items, page, reachable.length);
  }

  /** POST: a public key for the token's own user, for `client_id` or the application the token was issued to. */
  async create(tenant: Tenant, principal: ManagementPrincipal, body: { device_name: string; type: 'public_key'; value: string; device_id: string; client_id?: string }): Promise<{ id: string }> {
    if (principal.kind !== 'user') throw cannotCreate();
    const clientId = body.client_id ?? principal.clientId;
    if (clientId === undefined || !(await this.ctx.stores.clients.get(tenant.id, clientId))) {
      throw managementErrors.invalidBody("Payload validation error: 'The client does not exist' on property client_id (client_id of the client (application) this credential is for).");
    }
    if (!(await this.ctx.stores.users.get(tenant.id, principal.sub))) throw cannotCreate();
    const id = newPrefixedId('dcr', 16);
    try {
      await this.ctx.stores.deviceCredentials.insert({
        tenant_id: tenant.id,
        id,
        user_id: principal.sub,
        client_id: clientId,
        device_id: body.device_id,
        device_name: body.device_name,
        type: 'public_key',
        value: body.value,
        created_at: isoAt(this.ctx.now()),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw managementErrors.conflict('A public key already exists for the device.');
      throw error;
    }
    return { id };
  }

  async delete(tenant: Tenant, principal: ManagementPrincipal, id: string): Promise<void> {
    const own = (userId: string) => {
      if (principal.kind === 'user' && userId !== principal.sub) throw managementErrors.otherUser();
    };
    const key = await this.ctx.stores.deviceCredentials.get(tenant.id, id);
    if (key) {
      own(key.user_id);
      await this.ctx.stores.deviceCredentials.delete(tenant.id, id);
      return;
    }
    const token = await this.refreshTokens.get(tenant, id).catch(() => undefined);
    if (!token) return;
    own(token.user_id);
    await this.refreshTokens.delete(tenant, id);
  }
}
