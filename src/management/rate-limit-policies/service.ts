/**
 * Rate limit policies (/api/v2/rate-limit-policies): how many requests per
 * second a client may make to the Authentication API and what happens past
 * that (`block`: 429, `log`: a log line, the request goes on, `redirect`: a
 * browser navigation sent to `redirect_uri`), or `allow` (no limit).
 * Enforced by src/domain/rate-limit-policies/enforcement.ts from the hook
 * src/authentication/rate-limit-policies.ts.
 *
 * What Gatehouse cannot enforce is refused with 400 naming it, so that a
 * policy never silently limits nothing: the CIMD selectors (`cimd_clients`,
 * `client_id:<uri>`: Gatehouse has no Client ID Metadata Document clients),
 * a `client_id:` naming no client of the tenant, and any other selector.
 * One policy per resource, consumer and selector (409, the document's words).
 */
import type { RateLimitPolicyConfiguration, RateLimitPolicyRow } from '../../domain/rate-limit-policies/rows.js';
import type { RateLimitPolicyStore } from '../../domain/rate-limit-policies/store.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { ConfigurationBody, CreateRateLimitPolicyBody, ListQuery, PatchRateLimitPolicyBody, RateLimitPolicyResponse } from './schema.js';

const ID = /^rlp_[A-Za-z0-9]{22}$/;
const CATEGORY_SELECTORS = new Set(['default', 'third_party_clients']);

function invalid(property: string, message: string): Error {
  return managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);
}

function notFound(): Error {
  return managementErrors.notFound('The rate limit policy does not exist.');
}

/** The configuration as one of the document's three shapes, or 400 naming the member at fault. */
export function checkedConfiguration(body: ConfigurationBody): RateLimitPolicyConfiguration {
  const { action, limit, redirect_uri } = body;
  if (action === 'allow') {
    if (limit !== undefined) throw invalid('configuration.limit', 'limit is not allowed with the allow action');
    if (redirect_uri !== undefined) throw invalid('configuration.redirect_uri', 'redirect_uri is only allowed with the redirect action');
    return { action };
  }
  if (limit === undefined) throw invalid('configuration.limit', `Missing required property: limit (required with the ${action} action)`);
  if (action !== 'redirect') {
    if (redirect_uri !== undefined) throw invalid('configuration.redirect_uri', 'redirect_uri is only allowed with the redirect action');
    return { action, limit };
  }
  let url: URL | undefined;
  try {
    url = redirect_uri === undefined ? undefined : new URL(redirect_uri);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || url.username !== '' || url.password !== '') {
    throw invalid('configuration.redirect_uri', 'An https URL is required with the redirect action');
  }
  return { action, limit, redirect_uri: redirect_uri! };
}

function toApi(row: RateLimitPolicyRow): RateLimitPolicyResponse {
  return {
    id: row.id,
    resource: row.resource,
    consumer: row.consumer,
    consumer_selector: row.consumer_selector,
    configuration: row.configuration,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What RateLimitPolicyService touches. */
export interface RateLimitPolicyServiceContext extends CheckpointSealing {
  readonly stores: { readonly rateLimitPolicies: RateLimitPolicyStore; readonly clients: Pick<ClientStore, 'get'> };
}

export class RateLimitPolicyService {
  constructor(private readonly ctx: RateLimitPolicyServiceContext) {}

  /** GET: checkpoint paging by id, filtered by the members the query names. */
  async list(tenant: Tenant, query: ListQuery): Promise<CheckpointList<'rate_limit_policies', RateLimitPolicyResponse>> {
    const { from, take, ...filter } = query;
    const scope = `${tenant.id}:rate-limit-policies:${JSON.stringify(filter)}`;
    const paging = checkpointPaging(this.ctx, { ...(from !== undefined && { from }), ...(take !== undefined && { take }) }, scope);
    return checkpointPage(
      this.ctx,
      scope,
      'rate_limit_policies',
      paging,
      (window) => this.ctx.stores.rateLimitPolicies.page(tenant.id, filter, window),
      (row) => row.id,
      toApi,
    );
  }

  async get(tenant: Tenant, id: string): Promise<RateLimitPolicyResponse> {
    return toApi(await this.row(tenant, id));
  }

  async create(tenant: Tenant, body: CreateRateLimitPolicyBody): Promise<RateLimitPolicyResponse> {
    await this.checkSelector(tenant, body.consumer_selector);
    const configuration = checkedConfiguration(body.configuration);
    const now = isoAt(this.ctx.now());
    const row: RateLimitPolicyRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('rlp', 22),
      resource: body.resource,
      consumer: body.consumer,
      consumer_selector: body.consumer_selector,
      configuration,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.ctx.stores.rateLimitPolicies.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw managementErrors.conflict('A rate limit policy with the same resource, consumer, and consumer_selector already exists.');
      throw error;
    }
    return toApi(row);
  }

  /** PATCH: the configuration replaced (the only member the document lets change). */
  async update(tenant: Tenant, id: string, body: PatchRateLimitPolicyBody): Promise<RateLimitPolicyResponse> {
    const current = await this.row(tenant, id);
    const configuration = checkedConfiguration(body.configuration);
    const updatedAt = isoAt(this.ctx.now());
    if (!(await this.ctx.stores.rateLimitPolicies.update(tenant.id, id, configuration, updatedAt))) throw notFound();
    return toApi({ ...current, configuration, updated_at: updatedAt });
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!ID.test(id) || !(await this.ctx.stores.rateLimitPolicies.delete(tenant.id, id))) throw notFound();
  }

  private async row(tenant: Tenant, id: string): Promise<RateLimitPolicyRow> {
    const row = ID.test(id) ? await this.ctx.stores.rateLimitPolicies.get(tenant.id, id) : undefined;
    if (!row) throw notFound();
    return row;
  }

  /** The selectors Gatehouse can enforce; the others refused with the reason. */
  private async checkSelector(tenant: Tenant, selector: string): Promise<void> {
    if (CATEGORY_SELECTORS.has(selector)) return;
    if (selector === 'cimd_clients') {
      throw invalid('consumer_selector', 'Gatehouse has no Client ID Metadata Document (CIMD) clients; use client_id:<client_id>, third_party_clients or default');
    }
    if (!selector.startsWith('client_id:')) {
      throw invalid('consumer_selector', `${selector} is not a supported selector: use client_id:<client_id>, third_party_clients or default`);
    }
    const clientId = selector.slice('client_id:'.length);
    if (clientId.includes('://')) {
      throw invalid('consumer_selector', 'Gatehouse has no Client ID Metadata Document (CIMD) clients; a client_id selector names a client by its id');
    }
    if (clientId === '' || !(await this.ctx.stores.clients.get(tenant.id, clientId))) {
      throw invalid('consumer_selector', `The client ${clientId} does not exist`);
    }
  }
}
