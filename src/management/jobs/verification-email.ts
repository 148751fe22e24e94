import { managementRoute, type ManagementRouteFactory, BODY_CONTENT_TYPES } from '../route.js';
import { JobResponse, VerificationEmailBody } from './schema.js';
import type { JobService } from './service.js';

/** POST /api/v2/jobs/verification-email → 201 with the pending job; the runner mails the verification link. */
export const createVerificationEmail: ManagementRouteFactory<JobService> = (_ctx, jobs) => managementRoute({
  method: 'POST',
  url: '/jobs/verification-email',
  config: { scopes: ['update:users'] },
  schema: { consumes: BODY_CONTENT_TYPES, body: VerificationEmailBody, response: { 201: JobResponse } },
  handler: async (request, reply) => reply.code(201).send(await jobs.createVerificationEmail(request.tenant, request.body)),
});
