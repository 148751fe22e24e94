import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { IdParams } from './schema.js';
import type { DeviceCredentialService } from './service.js';

/** DELETE /api/v2/device-credentials/{id} → 204: a public key deleted, or a refresh token revoked. */
export const deleteDeviceCredential: ManagementRouteFactory<DeviceCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'DELETE',
  url: '/device-credentials/:id',
  config: { scopes: ['delete:device_credentials', 'delete:current_user_device_credentials'], currentUser: 'self' },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await credentials.delete(request.tenant, request.principal!, request.params.id);
    return reply.code(204).send();
  },
});
