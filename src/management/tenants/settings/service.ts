/**
 * The tenant's settings as the Management API shows and changes them
 * (GET/PATCH /api/v2/tenants/settings), stored in the tenant's settings
 * (src/domain/tenants/settings.ts):
 *
 * - the members Gatehouse acts on have fields of their own there, read where
 *   they apply: `default_audience` and `default_directory` (token endpoint),
 *   `allowed_logout_urls` (/v2/logout, /oidc/logout without a client), the
 *   session lifetimes and `session_cookie` (src/domain/sessions/policy.ts),
 *   `allow_organization_name_in_authentication_api`; `enabled_locales`,
 *   `friendly_name`, `picture_url`, `support_email` and `support_url` are
 *   kept there for the hosted pages;
 * - every other member is kept as given in `stored_only` and answered back
 *   (the README lists them);
 * - a lifetime given in minutes is stored in hours (fractional), as GET
 *   answers it; giving both units of one lifetime is refused;
 * - `null` removes a member (the document makes the objects nullable), as
 *   does an empty `default_audience` or `default_directory` (the service's
 *   way of clearing them); `flags` are merged, each flag kept until changed.
 *
 * GET shows the session lifetimes in force, defaults included, and
 * `enabled_locales` as `["en"]` until set.
 */
import { sessionPolicy } from '../../../domain/sessions/policy.js';
import type { TenantSettings } from '../../../domain/tenants/settings.js';
import { tenantFromRow, type Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { fieldSelection, selectFields } from '../../fields.js';
import { describeSetting, LIFETIME_PAIRS, TENANT_SETTINGS_FIELDS, type TenantSettingsBody, type TenantSettingsView } from './schema.js';
import type { UnitOfWork } from '../../../domain/stores.js';

/** The members with a field of their own in TenantSettings (see the file comment). */
const OWN_FIELDS = [
  'default_audience',
  'default_directory',
  'allowed_logout_urls',
  'allow_organization_name_in_authentication_api',
  'session_lifetime',
  'idle_session_lifetime',
  'ephemeral_session_lifetime',
  'idle_ephemeral_session_lifetime',
  'session_cookie',
  'enabled_locales',
  'friendly_name',
  'picture_url',
  'support_email',
  'support_url',
] as const satisfies readonly (keyof TenantSettings)[];
const OWN: ReadonlySet<string> = new Set(OWN_FIELDS);

/** Members whose empty string means "none". */
const CLEARED_BY_EMPTY: ReadonlySet<string> = new Set(['default_audience', 'default_directory']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What TenantSettingsService touches. */
export interface TenantSettingsServiceContext {
  readonly unitOfWork: UnitOfWork;
}

export class TenantSettingsService {
  constructor(private readonly ctx: TenantSettingsServiceContext) {}

  get(tenant: Tenant, query: { fields?: string; include_fields?: boolean }): TenantSettingsView {
    return selectFields(this.#view(tenant), fieldSelection(query));
  }

  async update(tenant: Tenant, body: TenantSettingsBody): Promise<TenantSettingsView> {
    const changes = normalisedChanges(body);
    const updated = await this.ctx.unitOfWork.transaction(async (stores) => {
      const row = await stores.tenants.getByIdForUpdate(tenant.id);
      if (!row) throw managementErrors.notFound();
      const settings = applyChanges(row.settings, changes);
      await stores.tenants.updateSettings(tenant.id, settings);
      return { ...row, settings };
    });
    // The view answers with the tenant as reached by this request (its custom domain, if any) and the new settings.
    return this.#view({ ...tenantFromRow(updated), issuer: tenant.issuer, ...(tenant.customDomain && { customDomain: tenant.customDomain }) });
  }

  #view(tenant: Tenant): TenantSettingsView {
    const s = tenant.settings;
    const view: Record<string, unknown> = { ...s.stored_only };
    for (const key of OWN_FIELDS) if (s[key] !== undefined) view[key] = s[key];
    const persistent = sessionPolicy({ settings: { ...s, session_cookie: { mode: 'persistent' } } });
    const ephemeral = sessionPolicy({ settings: { ...s, session_cookie: { mode: 'non-persistent' } } });
    view.session_lifetime = persistent.absoluteSeconds / 3600;
    view.idle_session_lifetime = persistent.idleSeconds / 3600;
    view.ephemeral_session_lifetime = ephemeral.absoluteSeconds / 3600;
    view.idle_ephemeral_session_lifetime = ephemeral.idleSeconds / 3600;
    view.enabled_locales ??= ['en'];
    return Object.fromEntries(TENANT_SETTINGS_FIELDS.filter((key) => view[key] !== undefined).map((key) => [key, view[key]]));
  }
}

/** The body with lifetimes in hours and each pair given once (400 otherwise). */
function normalisedChanges(body: TenantSettingsBody): Record<string, unknown> {
  const changes = { ...body };
  for (const [hours, minutes] of LIFETIME_PAIRS) {
    if (changes[minutes] === undefined) continue;
    if (changes[hours] !== undefined) {
      throw managementErrors.invalidBody(`Payload validation error: '${minutes} cannot be specified together with ${hours}' on property ${minutes} (${describeSetting(minutes)}).`);
    }
    changes[hours] = (changes[minutes] as number) / 60;
    delete changes[minutes];
  }
  return changes;
}

/** The stored settings with the changes applied (see the file comment). */
function applyChanges(current: TenantSettings, changes: Record<string, unknown>): TenantSettings {
  const settings: TenantSettings = { ...current };
  const storedOnly: Record<string, unknown> = { ...current.stored_only };
  const own = settings as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    const target = OWN.has(key) ? own : storedOnly;
    if (value === null || (CLEARED_BY_EMPTY.has(key) && value === '')) delete target[key];
    else if (key === 'flags' && isRecord(value)) target[key] = { ...(isRecord(target[key]) ? target[key] : {}), ...value };
    else target[key] = value;
  }
  if (Object.keys(storedOnly).length > 0) settings.stored_only = storedOnly;
  else delete settings.stored_only;
  return settings;
}
