import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { SmsTemplatesBody } from './schema.js';

const url = '/guardian/factors/sms/templates';

/** GET /api/v2/guardian/factors/sms/templates → 200 `{enrollment_message, verification_message}` (the service's defaults until set). */
export const getSmsTemplates: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: SmsTemplatesBody } },
  handler: async (request) => mfa.smsTemplates(request.tenant),
});

/** PUT …/sms/templates → 200 the templates; Liquid templates with `code` and `tenant.friendly_name`, checked before they are kept. */
export const setSmsTemplates: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SmsTemplatesBody, response: { 200: SmsTemplatesBody } },
  handler: async (request) => mfa.setSmsTemplates(request.tenant, request.body),
});
