import { Type } from '@sinclair/typebox';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { JobErrorsResponse, JobParams, JobResponse } from './schema.js';
import type { JobService } from './service.js';

/**
 * GET /api/v2/jobs/{id}/errors: per failing user of an import, the user (its
 * hashes left out) and its errors `[{code, message, path}]`, each message
 * naming the user's position and line in the file; a failed job without such
 * errors answers the job with its `status_details`; none at all is 204.
 */
export const getJobErrors: ManagementRouteFactory<JobService> = (_ctx, jobs) => managementRoute({
  method: 'GET',
  url: '/jobs/:id/errors',
  config: { scopes: ['create:users', 'read:users'] },
  schema: { params: JobParams, response: { 200: Type.Union([JobErrorsResponse, JobResponse]), 204: NoContent } },
  handler: async (request, reply) => {
    const errors = await jobs.errors(request.tenant, request.params.id);
    if (errors === undefined) return reply.code(204).send();
    return errors;
  },
});
