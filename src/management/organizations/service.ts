/** Business rules of organizations, behind the Management API routes. */
import { recordEvent } from '../../domain/event-streams/events.js';
import type { EventStreamStore } from '../../domain/event-streams/store.js';
import type { UnitOfWork } from '../../domain/stores.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import { organizationFromRow, type Organization, type OrganizationRow } from '../../domain/organizations/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Paging } from '../paging.js';
import { pagedList, type CheckpointList, type OffsetList, type CheckpointSealing } from '../lists.js';
import type { PageQuery } from '../../domain/paging.js';
import { DESCRIPTIONS, type Branding, type CreateOrganizationBody, type UpdateOrganizationBody } from './schema.js';
import type { OrganizationChanges, OrganizationSortField, OrganizationStore } from '../../domain/organizations/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';

export const notFound = () => managementErrors.notFound('The organization does not exist.', 'inexistent_organization');
const nameTaken = () => managementErrors.conflict('An organization with this name already exists.');

/**
 * The document's `organization-name` format, as its documentation words it:
 * lowercase letters, numbers, `_` and `-` (1 to 50 characters, the schema's
 * length limits); may start with a number.
 */
const ORGANIZATION_NAME = /^[a-z0-9_-]+$/;
/** `html-color`: a hex color, `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`. */
const HTML_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The message schema validation gives for a format (management-api-wire-notes §2). */
function formatError(format: string, value: string, property: string, description: string): ManagementError {
  return managementErrors.invalidBody(
    `Payload validation error: 'Object didn't pass validation for format ${format}: ${value}' on property ${property} (${description}).`,
  );
}

function checkName(name: string): void {
  if (!ORGANIZATION_NAME.test(name)) throw formatError('organization-name', name, 'name', DESCRIPTIONS.name);
}

/** `strict-https-uri-or-null` for the logo (an absolute https URL), `html-color` for the colors. */
function checkBranding(branding: Branding): void {
  if (branding.logo_url !== undefined) {
    let https = false;
    try {
      https = new URL(branding.logo_url).protocol === 'https:';
    } catch {
      // not a URL
    }
    if (!https) throw formatError('strict-https-uri-or-null', branding.logo_url, 'branding.logo_url', DESCRIPTIONS.logo_url);
  }
  for (const key of ['primary', 'page_background'] as const) {
    const color = branding.colors?.[key];
    if (color !== undefined && !HTML_COLOR.test(color)) throw formatError('html-color', color, `branding.colors.${key}`, DESCRIPTIONS[key]);
  }
}

/** Metadata as stored: a null value removes the key. */
function metadataWithoutNulls(metadata: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).filter((entry): entry is [string, string] => entry[1] !== null));
}

const unsupported = (message: string) => managementErrors.badRequest(message, 'operation_not_supported');

export type OrganizationList = OffsetList<'organizations', Organization> | CheckpointList<'organizations', Organization>;

export interface OrganizationSort {
  field: OrganizationSortField;
  descending: boolean;
}

/** What OrganizationService touches. */
export interface OrganizationServiceContext extends CheckpointSealing {
  readonly now: () => number;
  /** A change and its event (src/domain/event-streams/events.ts) commit together. */
  readonly unitOfWork: UnitOfWork<{ readonly organizations: OrganizationStore; readonly eventStreams: EventStreamStore }>;
}

export class OrganizationService {
  constructor(
    private readonly ctx: OrganizationServiceContext,
    private readonly organizations: OrganizationStore,
  ) {}

  /** Checkpoint pages follow ids and ignore `sort`; offset pages honour it. */
  list(tenant: Tenant, paging: Paging, sort: OrganizationSort | undefined): Promise<OrganizationList> {
    const fetch = (page: PageQuery) => this.organizations.list(tenant.id, page.kind === 'offset' && sort ? { ...page, sort } : page);
    return pagedList(this.ctx, checkpointScope(tenant), 'organizations', paging, fetch, (row) => row.id, organizationFromRow);
  }

  async get(tenant: Tenant, id: string): Promise<Organization> {
    const row = await this.organizations.get(tenant.id, id);
    if (!row) throw notFound();
    return organizationFromRow(row);
  }

  async getByName(tenant: Tenant, name: string): Promise<Organization> {
    const row = await this.organizations.getByName(tenant.id, name);
    if (!row) throw notFound();
    return organizationFromRow(row);
  }

  async create(tenant: Tenant, body: CreateOrganizationBody): Promise<Organization> {
    if (body.enabled_connections?.length) {
      throw unsupported('enabled_connections is not supported: there are no connections to enable.');
    }
    if (body.token_quota !== undefined) throw unsupported('token_quota is not supported.');
    checkName(body.name);
    if (body.branding) checkBranding(body.branding);
    const row: OrganizationRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('org'),
      name: body.name,
      display_name: body.display_name ?? null,
      branding: body.branding ?? null,
      metadata: metadataWithoutNulls(body.metadata ?? {}),
      created_at: isoAt(this.ctx.now()),
    };
    try {
      await this.ctx.unitOfWork.transaction(async (stores) => {
        await stores.organizations.insert(row);
        await recordEvent(stores, tenant, 'organization.created', { ...organizationFromRow(row) }, this.ctx.now());
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    return organizationFromRow(row);
  }

  /** Members given replace the stored ones; `branding` and `metadata` are replaced whole. */
  async update(tenant: Tenant, id: string, body: UpdateOrganizationBody): Promise<Organization> {
    const row = await this.organizations.get(tenant.id, id);
    if (!row) throw notFound();
    if (body.token_quota !== undefined) throw unsupported('token_quota is not supported.');
    const changes: OrganizationChanges = {};
    if (body.name !== undefined) {
      checkName(body.name);
      changes.name = body.name;
    }
    if (body.display_name !== undefined) changes.display_name = body.display_name;
    if (body.branding !== undefined) {
      checkBranding(body.branding);
      changes.branding = body.branding;
    }
    if (body.metadata !== undefined) changes.metadata = metadataWithoutNulls(body.metadata);
    if (Object.keys(changes).length) {
      let updated: boolean;
      try {
        updated = await this.ctx.unitOfWork.transaction(async (stores) => {
          const done = await stores.organizations.update(tenant.id, id, changes);
          if (done) await recordEvent(stores, tenant, 'organization.updated', { ...organizationFromRow({ ...row, ...changes }) }, this.ctx.now());
          return done;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      if (!updated) throw notFound();
    }
    return organizationFromRow({ ...row, ...changes });
  }

  /** Its client grant links go with it; the grants themselves stay. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    const row = await this.organizations.get(tenant.id, id);
    const deleted = await this.ctx.unitOfWork.transaction(async (stores) => {
      const done = await stores.organizations.delete(tenant.id, id);
      if (done && row) await recordEvent(stores, tenant, 'organization.deleted', { ...organizationFromRow(row) }, this.ctx.now());
      return done;
    });
    if (!deleted) throw notFound();
  }
}

export function checkpointScope(tenant: Tenant): string {
  return `${tenant.id}:organizations`;
}
