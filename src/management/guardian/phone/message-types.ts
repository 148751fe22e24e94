import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../platform/http/schema-types.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';

const MessageTypes = Type.Object(
  {
    message_types: Type.Array(StringEnum(['sms', 'voice'] as const), {
      maxItems: 2,
      description: 'The list of phone factors to enable on the tenant. Can include `sms` and `voice`.',
    }),
  },
  { additionalProperties: false },
);
const url = '/guardian/factors/phone/message-types';

/** GET /api/v2/guardian/factors/phone/message-types → 200 `{message_types}` (`["sms"]` until set). */
export const getPhoneMessageTypes: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url,
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: MessageTypes } },
  handler: async (request) => mfa.phoneMessageTypes(request.tenant),
});

/** PUT …/message-types → 200 `{message_types}`; `voice` is refused (400): Gatehouse sends text messages only. */
export const setPhoneMessageTypes: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url,
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: MessageTypes, response: { 200: MessageTypes } },
  handler: async (request) => mfa.setPhoneMessageTypes(request.tenant, request.body.message_types),
});
