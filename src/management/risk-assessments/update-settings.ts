/**
 * PATCH /api/v2/risk-assessments/settings. Gatehouse has no risk assessment:
 * reading its settings is not available (the catch-all's 404), and this
 * operation takes only `{"enabled": false}`, which is already so, answering
 * it back. Deploy tools need it: auth0-deploy-cli exports
 * `riskAssessment: {settings: {enabled: false}}` for a tenant whose settings
 * answer 404, and its import always sends them back. Turning it on is refused
 * as not available.
 */
import { Type } from '@sinclair/typebox';
import { ManagementError } from '../../platform/http/errors.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRoute } from '../route.js';

const Settings = Type.Object(
  { enabled: Type.Boolean({ description: 'Whether or not risk assessment is enabled.' }) },
  { additionalProperties: false },
);

export function updateRiskAssessmentSettings(): ManagementRoute {
  return managementRoute({
    method: 'PATCH',
    url: '/risk-assessments/settings',
    config: { scopes: ['update:attack_protection'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: Settings, response: { 200: Settings } },
    handler: async (request) => {
      if (request.body.enabled) throw new ManagementError(400, 'Risk assessment is not available in Gatehouse: it can only be disabled.', 'not_available_in_gatehouse');
      return { enabled: false };
    },
  });
}
