import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { offsetListResponse } from '../lists.js';
import { DeviceCredentialResponse, ListQuery } from './schema.js';
import type { DeviceCredentialService } from './service.js';

/** GET /api/v2/device-credentials: public keys and refresh tokens, filtered by user, client and type; offset paging. */
export const listDeviceCredentials: ManagementRouteFactory<DeviceCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'GET',
  url: '/device-credentials',
  config: { scopes: ['read:device_credentials'] },
  schema: { querystring: ListQuery, response: { 200: offsetListResponse('device_credentials', Type.Partial(DeviceCredentialResponse)) } },
  handler: async (request) => credentials.list(request.tenant, request.query),
});
