/**
 * Business rules of /api/v2/risk-assessments/* and
 * /api/v2/users/{id}/risk-assessments/clear: the settings live in the
 * tenant's settings (../../domain/risk-assessments/settings.ts); clearing a
 * user's `new-device` assessor forgets every device the user logged in
 * from, so the next login is assessed as one without device history.
 */
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { RiskAssessmentStore } from '../../domain/risk-assessments/store.js';
import {
  newDeviceRememberFor,
  riskAssessmentEnabled,
  withNewDeviceRememberFor,
  withRiskAssessmentEnabled,
} from '../../domain/risk-assessments/settings.js';
import type { TenantService } from '../../domain/tenants/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserStore } from '../../domain/users/store.js';
import { managementErrors } from '../../platform/http/errors.js';
import { userNotFound } from '../users/service.js';

/** What RiskAssessmentService touches. */
export interface RiskAssessmentServiceContext {
  readonly tenants: TenantService;
  readonly stores: { readonly users: Pick<UserStore, 'get'>; readonly connections: Pick<ConnectionStore, 'get'>; readonly riskAssessments: Pick<RiskAssessmentStore, 'forgetDevices'> };
}

export type Assessor = 'new-device';

export class RiskAssessmentService {
  constructor(private readonly ctx: RiskAssessmentServiceContext) {}

  settings(tenant: Tenant): { enabled: boolean } {
    return { enabled: riskAssessmentEnabled(tenant.settings) };
  }

  async updateSettings(tenant: Tenant, enabled: boolean): Promise<{ enabled: boolean }> {
    const settings = withRiskAssessmentEnabled(tenant.settings, enabled);
    await this.ctx.tenants.updateSettings(tenant, settings);
    return { enabled: riskAssessmentEnabled(settings) };
  }

  newDevice(tenant: Tenant): { remember_for: number } {
    return { remember_for: newDeviceRememberFor(tenant.settings) };
  }

  async updateNewDevice(tenant: Tenant, rememberFor: number): Promise<{ remember_for: number }> {
    const settings = withNewDeviceRememberFor(tenant.settings, rememberFor);
    await this.ctx.tenants.updateSettings(tenant, settings);
    return { remember_for: newDeviceRememberFor(settings) };
  }

  /** Forgets what the named assessors know of the user: 404 for an unknown user, 400 when the connection is not the user's. */
  async clear(tenant: Tenant, userId: string, connectionName: string, assessors: readonly Assessor[]): Promise<void> {
    const user = await this.ctx.stores.users.get(tenant.id, userId);
    if (!user) throw userNotFound();
    const connection = await this.ctx.stores.connections.get(tenant.id, user.connection_id);
    if (connection?.name !== connectionName) throw managementErrors.invalidBody(`The user does not belong to the connection "${connectionName}".`);
    for (const assessor of new Set(assessors)) {
      if (assessor === 'new-device') await this.ctx.stores.riskAssessments.forgetDevices(tenant.id, user.user_id);
    }
  }
}
