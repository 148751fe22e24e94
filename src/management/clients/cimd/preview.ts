import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CimdBody, PreviewCimdResponse } from './schema.js';
import type { CimdService } from './service.js';

/** POST /api/v2/clients/cimd/preview: the document fetched and checked, its mapping, nothing created (200, retrieval errors included). */
export const previewCimdMetadata: ManagementRouteFactory<CimdService> = (_ctx, cimd) => managementRoute({
  method: 'POST',
  url: '/clients/cimd/preview',
  config: { scopes: ['read:clients'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CimdBody, response: { 200: PreviewCimdResponse } },
  handler: async (request) => cimd.preview(request.tenant, request.body.external_client_id),
});
