import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { RiskAssessmentSettings } from './schema.js';
import type { RiskAssessmentService } from './service.js';

/** GET /api/v2/risk-assessments/settings: whether logins' assessments are written on their tenant log entries. */
export const getRiskAssessmentSettings: ManagementRouteFactory<RiskAssessmentService> = (_ctx, risk) => managementRoute({
  method: 'GET',
  url: '/risk-assessments/settings',
  config: { scopes: ['read:attack_protection'] },
  schema: { response: { 200: RiskAssessmentSettings } },
  handler: async (request) => risk.settings(request.tenant),
});
