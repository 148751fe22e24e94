/**
 * Custom token exchange profiles (actions-wire-notes §4): a
 * `subject_token_type` (a URI outside the namespaces the service reserves)
 * bound to an action of the custom-token-exchange trigger, unique per tenant
 * (409 otherwise). Ids `tep_…`, timestamps in milliseconds (unlike Actions').
 * Only `name` and `subject_token_type` change after creation.
 */
import type { ActionStore } from '../../domain/actions/store.js';
import type { TokenExchangeProfileRow } from '../../domain/token-exchange-profiles/rows.js';
import type { TokenExchangeProfileStore } from '../../domain/token-exchange-profiles/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { CreateProfileBody, ProfileListQuery, ProfileResponse, UpdateProfileBody } from './schema.js';

/** Profiles a tenant may have (beyond: the service's 403). */
export const MAX_PROFILES = 100;

/** Namespaces of `subject_token_type` the service keeps for itself. */
const RESERVED = /^(https?:\/\/(auth0|okta)\.com([/:?#]|$)|urn:(ietf|auth0|okta):)/i;

function toApi(row: TokenExchangeProfileRow): ProfileResponse {
  return {
    id: row.id,
    name: row.name,
    subject_token_type: row.subject_token_type,
    action_id: row.action_id,
    type: row.type,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function checkSubjectTokenType(value: string): void {
  if (RESERVED.test(value)) {
    throw managementErrors.invalidBody(`Payload validation error: 'subject_token_type must not use a reserved namespace (https://auth0.com, https://okta.com, urn:ietf, urn:auth0, urn:okta)' on property subject_token_type.`);
  }
}

const notFound = () => managementErrors.notFound('Token Exchange Profile not found.');
const taken = () => managementErrors.conflict('subject_token_type already exists for tenant');

/** What TokenExchangeProfileService touches. */
export interface TokenExchangeProfileServiceContext extends CheckpointSealing {
  readonly stores: { readonly tokenExchangeProfiles: TokenExchangeProfileStore; readonly actions: ActionStore };
}

export class TokenExchangeProfileService {
  constructor(private readonly ctx: TokenExchangeProfileServiceContext) {}

  async list(tenant: Tenant, query: ProfileListQuery): Promise<CheckpointList<'token_exchange_profiles', ProfileResponse>> {
    const scope = `${tenant.id}:token-exchange-profiles`;
    return checkpointPage(
      this.ctx,
      scope,
      'token_exchange_profiles',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.tokenExchangeProfiles.list(tenant.id, window.after, window.limit),
      (row) => row.id,
      toApi,
    );
  }

  async get(tenant: Tenant, id: string): Promise<ProfileResponse> {
    const row = await this.ctx.stores.tokenExchangeProfiles.get(tenant.id, id);
    if (!row) throw notFound();
    return toApi(row);
  }

  async create(tenant: Tenant, body: CreateProfileBody): Promise<ProfileResponse> {
    if (body.type !== 'custom_authentication') throw managementErrors.badRequest('Type field must be custom_authentication', 'invalid_body');
    checkSubjectTokenType(body.subject_token_type);
    const action = await this.ctx.stores.actions.get(tenant.id, body.action_id);
    if (!action) throw managementErrors.badRequest(`The action ${body.action_id} does not exist.`, 'invalid_body');
    if (action.supported_triggers[0]?.id !== 'custom-token-exchange') {
      throw managementErrors.badRequest(`The action ${body.action_id} does not support the custom-token-exchange trigger.`, 'invalid_body');
    }
    if ((await this.ctx.stores.tokenExchangeProfiles.count(tenant.id)) >= MAX_PROFILES) {
      throw new ManagementError(403, 'You reached the limit of entities of this type for this tenant', 'insufficient_scope');
    }
    const now = isoAt(this.ctx.now());
    const row: TokenExchangeProfileRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('tep'),
      name: body.name,
      subject_token_type: body.subject_token_type,
      action_id: body.action_id,
      type: 'custom_authentication',
      created_at: now,
      updated_at: now,
    };
    if (!(await this.ctx.stores.tokenExchangeProfiles.create(row))) throw taken();
    return toApi(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateProfileBody): Promise<ProfileResponse> {
    if (body.subject_token_type !== undefined) checkSubjectTokenType(body.subject_token_type);
    const updated = await this.ctx.stores.tokenExchangeProfiles.update(tenant.id, id, body, isoAt(this.ctx.now()));
    if (updated === 'conflict') throw taken();
    if (!updated) throw notFound();
    return toApi(updated);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.tokenExchangeProfiles.delete(tenant.id, id))) throw notFound();
  }
}
