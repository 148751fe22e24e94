/**
 * /api/v2/supplemental-signals: whether the Akamai headers of requests
 * through a trusted proxy are read (../../domain/risk-assessments/supplemental.ts),
 * kept in the tenant's settings. A tenant that never set it answers
 * `akamai_enabled: false` rather than the service's 404, so that tools
 * exporting the configuration see the setting.
 */
import { akamaiEnabled, withAkamaiEnabled } from '../../domain/risk-assessments/settings.js';
import type { TenantService } from '../../domain/tenants/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';

export interface SupplementalSignalsServiceContext {
  readonly tenants: TenantService;
}

export class SupplementalSignalsService {
  constructor(private readonly ctx: SupplementalSignalsServiceContext) {}

  get(tenant: Tenant): { akamai_enabled: boolean } {
    return { akamai_enabled: akamaiEnabled(tenant.settings) };
  }

  async update(tenant: Tenant, enabled: boolean): Promise<{ akamai_enabled: boolean }> {
    const settings = withAkamaiEnabled(tenant.settings, enabled);
    await this.ctx.tenants.updateSettings(tenant, settings);
    return { akamai_enabled: akamaiEnabled(settings) };
  }
}
