import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { RiskAssessmentSettings } from './schema.js';
import type { RiskAssessmentService } from './service.js';

/**
 * PATCH /api/v2/risk-assessments/settings: `enabled` on writes each login's
 * assessment on its tenant log entry (`details.riskAssessment`). Deploy tools
 * send `{"enabled": false}` back on import (auth0-deploy-cli), which is so
 * by default.
 */
export const updateRiskAssessmentSettings: ManagementRouteFactory<RiskAssessmentService> = (_ctx, risk) => managementRoute({
  method: 'PATCH',
  url: '/risk-assessments/settings',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: RiskAssessmentSettings, response: { 200: RiskAssessmentSettings } },
  handler: async (request) => risk.updateSettings(request.tenant, request.body.enabled),
});
