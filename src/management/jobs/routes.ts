import type { ManagementRoute } from '../route.js';
import { getJobErrors } from './errors.js';
import { getJob } from './get.js';
import { JobService, type JobServiceContext } from './service.js';
import { createUsersExport } from './users-exports.js';
import { createUsersImport, type UsersImportRouteContext } from './users-imports.js';
import { createVerificationEmail } from './verification-email.js';

/** /api/v2/jobs: user imports and exports, verification emails, and their state. */
export function jobRoutes(ctx: JobServiceContext & UsersImportRouteContext): ManagementRoute[] {
  const service = new JobService(ctx);
  return [createUsersImport, createUsersExport, createVerificationEmail, getJob, getJobErrors].map((route) => route(ctx, service));
}
