/**
 * Business rules of self-service SSO profiles and their tickets: at most
 * MAX_PROFILES per tenant (the document's 409); a ticket is 256 random bits,
 * its URL `https://{domain}/self-service/connections-flow?ticket={ticket}`
 * shown once and only its SHA-256 kept; it expires after `ttl_sec` (5 days
 * by default and at most), is spent by the one setup it allows
 * (src/authentication/self-service/), and its revocation names it by the
 * ticket itself. What a ticket will enable (clients, organizations) and the
 * connection name it will take are checked when it is made.
 */
import type { ClientStore } from '../../domain/clients/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { OrganizationStore } from '../../domain/organizations/store.js';
import type { SelfServiceProfileRow, SsoTicketConfig } from '../../domain/self-service/rows.js';
import type { SelfServiceStore } from '../../domain/self-service/store.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserAttributeProfileStore } from '../../domain/user-attribute-profiles/store.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import { offsetList, offsetPaging, offsetWindow, type OffsetList } from '../lists.js';
import type { CreateProfileBody, Profile, SsoTicketBody, UpdateProfileBody } from './schema.js';

/** Profiles a tenant may have (Gatehouse's bound; the service's is not recorded). */
export const MAX_PROFILES = 20;
/** A ticket's default and longest life (the document's `ttl_sec`). */
export const MAX_TICKET_SECONDS = 432_000;
/** The strategies Gatehouse's setup page configures (the profile may name more; the page offers these). */
export const PAGE_STRATEGIES = ['samlp'] as const;

const profileNotFound = () => managementErrors.notFound('Self-service profile not found');

export interface SelfServiceProfileContext {
  readonly now: () => number;
  readonly stores: {
    readonly selfService: SelfServiceStore;
    readonly clients: Pick<ClientStore, 'get'>;
    readonly connections: Pick<ConnectionStore, 'getByName'>;
    readonly organizations: Pick<OrganizationStore, 'get'>;
    readonly userAttributeProfiles: Pick<UserAttributeProfileStore, 'get'>;
  };
}

export function profileFromRow(row: SelfServiceProfileRow): Profile {
  return {
    id: row.id,
    name: row.name,
    ...(row.description !== null && { description: row.description }),
    user_attributes: row.user_attributes,
    ...(row.user_attribute_profile_id !== null && { user_attribute_profile_id: row.user_attribute_profile_id }),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.branding !== null && { branding: row.branding }),
    allowed_strategies: row.allowed_strategies,
  };
}

export class SelfServiceProfileService {
  constructor(private readonly ctx: SelfServiceProfileContext) {}

  private async row(tenant: Tenant, id: string): Promise<SelfServiceProfileRow> {
    const row = await this.ctx.stores.selfService.getProfile(tenant.id, id);
    if (!row) throw profileNotFound();
    return row;
  }

  async list(tenant: Tenant, query: { page?: number; per_page?: number; include_totals?: boolean }): Promise<OffsetList<'self_service_profiles', Profile>> {
    const paging = offsetPaging(query);
    const page = await this.ctx.stores.selfService.listProfiles(tenant.id, offsetWindow(paging));
    return offsetList('self_service_profiles', page.rows.map(profileFromRow), paging, page.total);
  }

  async get(tenant: Tenant, id: string): Promise<Profile> {
    return profileFromRow(await this.row(tenant, id));
  }

  /** A named user attribute profile must be one of the tenant's (400 otherwise, before anything is written). */
  private async checkUserAttributeProfile(tenant: Tenant, id: string | null | undefined): Promise<void> {
    if (typeof id === 'string' && !(await this.ctx.stores.userAttributeProfiles.get(tenant.id, id))) {
      throw managementErrors.badRequest(`The user attribute profile ${id} does not exist.`, 'invalid_body');
    }
  }

  async create(tenant: Tenant, body: CreateProfileBody): Promise<Profile> {
    await this.checkUserAttributeProfile(tenant, body.user_attribute_profile_id);
    if ((await this.ctx.stores.selfService.countProfiles(tenant.id)) >= MAX_PROFILES) throw managementErrors.conflict('No more profiles can be created for this tenant.');
    const now = isoAt(this.ctx.now());
    const row: SelfServiceProfileRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('ssp', 22),
      name: body.name,
      description: body.description ?? null,
      branding: body.branding ?? null,
      allowed_strategies: [...new Set(body.allowed_strategies ?? ['samlp', 'oidc'])],
      user_attributes: body.user_attributes ?? [],
      user_attribute_profile_id: body.user_attribute_profile_id ?? null,
      custom_text: {},
      created_at: now,
      updated_at: now,
    };
    await this.ctx.stores.selfService.insertProfile(row);
    return profileFromRow(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateProfileBody): Promise<Profile> {
    const row = await this.row(tenant, id);
    await this.checkUserAttributeProfile(tenant, body.user_attribute_profile_id);
    const changes: Partial<SelfServiceProfileRow> = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.branding !== undefined && { branding: body.branding }),
      ...(body.allowed_strategies !== undefined && { allowed_strategies: [...new Set(body.allowed_strategies)] }),
      ...(body.user_attributes !== undefined && { user_attributes: body.user_attributes ?? [] }),
      ...(body.user_attribute_profile_id !== undefined && { user_attribute_profile_id: body.user_attribute_profile_id }),
      updated_at: isoAt(this.ctx.now()),
    };
    if (!(await this.ctx.stores.selfService.updateProfile(tenant.id, id, changes))) throw profileNotFound();
    return profileFromRow({ ...row, ...changes });
  }

  /** DELETE → 204; its tickets stop working with it. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.selfService.deleteProfile(tenant.id, id))) throw profileNotFound();
  }

  async customText(tenant: Tenant, id: string, language: string, page: string): Promise<Record<string, string>> {
    return (await this.row(tenant, id)).custom_text[language]?.[page] ?? {};
  }

  /** PUT replaces the page's texts (an empty object clears them). */
  async setCustomText(tenant: Tenant, id: string, language: string, page: string, texts: Record<string, string>): Promise<Record<string, string>> {
    const row = await this.row(tenant, id);
    const custom_text = { ...row.custom_text, [language]: { ...row.custom_text[language], [page]: texts } };
    await this.ctx.stores.selfService.updateProfile(tenant.id, id, { custom_text, updated_at: isoAt(this.ctx.now()) });
    return texts;
  }

  /** POST /self-service-profiles/{id}/sso-ticket → 201 `{ticket}` (the URL). */
  async createTicket(tenant: Tenant, id: string, body: SsoTicketBody): Promise<{ ticket: string }> {
    await this.row(tenant, id);
    if (body.connection_id !== undefined) throw managementErrors.badRequest('Gatehouse\'s tickets create a connection; editing an existing one (connection_id) is not supported.', 'operation_not_supported');
    if (body.provisioning_config !== undefined) throw managementErrors.badRequest('provisioning_config is not supported by Gatehouse\'s setup page; configure SCIM through /connections/{id}/scim-configuration.', 'operation_not_supported');
    if (body.domain_aliases_config !== undefined && body.domain_aliases_config.domain_verification !== 'none') {
      throw managementErrors.badRequest('Domain verification in the setup page is not supported by Gatehouse: domain_verification must be none.', 'operation_not_supported');
    }
    const { stores } = this.ctx;
    for (const clientId of body.enabled_clients ?? []) {
      if (!(await stores.clients.get(tenant.id, clientId))) throw managementErrors.badRequest(`The client ${clientId} does not exist.`, 'invalid_body');
    }
    for (const { organization_id } of body.enabled_organizations ?? []) {
      if (!(await stores.organizations.get(tenant.id, organization_id))) throw managementErrors.badRequest(`The organization ${organization_id} does not exist.`, 'invalid_body');
    }
    if (body.connection_config && (await stores.connections.getByName(tenant.id, body.connection_config.name))) throw managementErrors.conflict('A connection with this name already exists.');
    const config: SsoTicketConfig = {
      ...(body.connection_config && { connection_config: body.connection_config as SsoTicketConfig['connection_config'] }),
      ...(body.enabled_clients && { enabled_clients: [...new Set(body.enabled_clients)] }),
      ...(body.enabled_organizations && { enabled_organizations: body.enabled_organizations }),
    };
    const ticket = newSecret();
    const now = this.ctx.now();
    const ttl = body.ttl_sec === undefined || body.ttl_sec === 0 ? MAX_TICKET_SECONDS : body.ttl_sec;
    await stores.selfService.insertTicket({
      tenant_id: tenant.id,
      id_hash: secretHash(ticket),
      profile_id: id,
      config,
      created_at: isoAt(now),
      expires_at: isoAt(now + ttl * 1000),
      used_at: null,
      revoked_at: null,
      connection_id: null,
    });
    return { ticket: `${tenant.issuer}self-service/connections-flow?ticket=${encodeURIComponent(ticket)}` };
  }

  /** POST …/sso-ticket/{id}/revoke → 202: the ticket (named by itself, as its URL carries it) stops working; an unknown one is accepted too. */
  async revokeTicket(tenant: Tenant, profileId: string, ticket: string): Promise<void> {
    await this.row(tenant, profileId);
    await this.ctx.stores.selfService.revokeTicket(tenant.id, profileId, secretHash(ticket), isoAt(this.ctx.now()));
  }
}
