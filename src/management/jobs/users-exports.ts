import { managementRoute, type ManagementRouteFactory, BODY_CONTENT_TYPES } from '../route.js';
import { ExportBody, JobResponse } from './schema.js';
import type { JobService } from './service.js';

/** POST /api/v2/jobs/users-exports → 201 with the pending job; GET /jobs/{id} gives its `location` once completed. */
export const createUsersExport: ManagementRouteFactory<JobService> = (_ctx, jobs) => managementRoute({
  method: 'POST',
  url: '/jobs/users-exports',
  config: { scopes: ['read:users'] },
  schema: { consumes: BODY_CONTENT_TYPES, body: ExportBody, response: { 201: JobResponse } },
  handler: async (request, reply) => reply.code(201).send(await jobs.createExport(request.tenant, request.body)),
});
