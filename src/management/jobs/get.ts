import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { JobParams, JobResponse } from './schema.js';
import type { JobService } from './service.js';

/** GET /api/v2/jobs/{id}: status, summary once done, and an export's signed, expiring `location`. */
export const getJob: ManagementRouteFactory<JobService> = (_ctx, jobs) => managementRoute({
  method: 'GET',
  url: '/jobs/:id',
  config: { scopes: ['create:users', 'read:users'] },
  schema: { params: JobParams, response: { 200: JobResponse } },
  handler: async (request) => jobs.get(request.tenant, request.params.id),
});
