import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../platform/http/schema-types.js';
import { PHONE_PROVIDERS } from '../../../domain/mfa/model.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';

const Provider = Type.Object({ provider: StringEnum(PHONE_PROVIDERS) }, { additionalProperties: false });

/** The factor's two names in the service's document: `sms` (older) and `phone`; one setting. */
const urlOf = (factor: 'sms' | 'phone') => `/guardian/factors/${factor}/selected-provider`;

/** GET /api/v2/guardian/factors/{sms|phone}/selected-provider → 200 `{provider}` (`auth0` until set). */
const getProvider = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: urlOf(factor),
  config: { scopes: ['read:guardian_factors'] },
  schema: { response: { 200: Provider } },
  handler: async (request) => mfa.phoneProvider(request.tenant),
});

/** PUT …/selected-provider `{provider}` → 200 `{provider}`. */
const setProvider = (factor: 'sms' | 'phone'): ManagementRouteFactory<GuardianMfaService> => (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: urlOf(factor),
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: Provider, response: { 200: Provider } },
  handler: async (request) => mfa.setPhoneProvider(request.tenant, request.body.provider),
});

export const getSmsSelectedProvider = getProvider('sms');
export const setSmsSelectedProvider = setProvider('sms');
export const getPhoneSelectedProvider = getProvider('phone');
export const setPhoneSelectedProvider = setProvider('phone');
