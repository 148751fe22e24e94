import type { ManagementRoute } from '../route.js';
import { clearUserAssessors } from '../users/risk-assessments/clear.js';
import { getRiskAssessmentSettings } from './get-settings.js';
import { getNewDeviceSettings } from './new-device/get.js';
import { updateNewDeviceSettings } from './new-device/update.js';
import { RiskAssessmentService, type RiskAssessmentServiceContext } from './service.js';
import { updateRiskAssessmentSettings } from './update-settings.js';

/** /api/v2/risk-assessments/settings (and …/new-device), and /api/v2/users/{id}/risk-assessments/clear. */
export function riskAssessmentRoutes(ctx: RiskAssessmentServiceContext): ManagementRoute[] {
  const service = new RiskAssessmentService(ctx);
  return [getRiskAssessmentSettings, updateRiskAssessmentSettings, getNewDeviceSettings, updateNewDeviceSettings, clearUserAssessors].map((route) => route(ctx, service));
}
