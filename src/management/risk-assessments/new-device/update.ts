import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { NewDeviceSettings } from '../schema.js';
import type { RiskAssessmentService } from '../service.js';

/** PATCH /api/v2/risk-assessments/settings/new-device: `remember_for` (1-365 days) applies to each device's next login. */
export const updateNewDeviceSettings: ManagementRouteFactory<RiskAssessmentService> = (_ctx, risk) => managementRoute({
  method: 'PATCH',
  url: '/risk-assessments/settings/new-device',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: NewDeviceSettings, response: { 200: NewDeviceSettings } },
  handler: async (request) => risk.updateNewDevice(request.tenant, request.body.remember_for),
});
