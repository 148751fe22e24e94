import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { NewDeviceSettings } from '../schema.js';
import type { RiskAssessmentService } from '../service.js';

/** GET /api/v2/risk-assessments/settings/new-device: how many days a device stays known after its last login. */
export const getNewDeviceSettings: ManagementRouteFactory<RiskAssessmentService> = (_ctx, risk) => managementRoute({
  method: 'GET',
  url: '/risk-assessments/settings/new-device',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: NewDeviceSettings } },
  handler: async (request) => risk.newDevice(request.tenant),
});
