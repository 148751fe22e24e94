import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateBody, CreateResponse } from './schema.js';
import type { DeviceCredentialService } from './service.js';

/** POST /api/v2/device-credentials → 201: a device's public key, registered by its user's own token. */
export const createDeviceCredential: ManagementRouteFactory<DeviceCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'POST',
  url: '/device-credentials',
  config: { scopes: ['create:current_user_device_credentials'], currentUser: 'self' },
  schema: { body: CreateBody, consumes: BODY_CONTENT_TYPES, response: { 201: CreateResponse } },
  handler: async (request, reply) => reply.code(201).send(await credentials.create(request.tenant, request.principal!, request.body)),
});
