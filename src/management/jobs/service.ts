/**
 * Management API jobs: creating them (the queue row, and the users file of an
 * import), and reading their state and errors. The work itself is done in
 * the background by src/domain/jobs/runner.ts.
 */
import type { Static } from '@sinclair/typebox';
import { exportLink, type ExportLinkContext } from '../../domain/jobs/export-links.js';
import { MAX_IMPORT_USERS } from '../../domain/jobs/runner.js';
import { ImportFileError, readUsersFile } from '../../domain/jobs/users-import.js';
import type { JobRow, JobType } from '../../domain/rows.js';
import { INTERNAL_JOB_TYPES } from '../../domain/jobs/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { ExportBody, JobResponse, VerificationEmailBody } from './schema.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import { newJobRow, type JobStore } from '../../domain/jobs/store.js';
import type { UserStore } from '../../domain/users/store.js';

type Job = Static<typeof JobResponse>;

const jobNotFound = () => managementErrors.notFound('The job does not exist.', 'inexistent_job');
const connectionNotFound = () => managementErrors.badRequest('The connection does not exist.', 'inexistent_connection');

/** Most errors GET /jobs/{id}/errors answers with. */
const MAX_ERRORS = 10_000;

export interface ImportRequest {
  users: string;
  connection_id: string;
  upsert: boolean;
  external_id?: string | undefined;
  send_completion_email: boolean;
}

/** What JobService touches. */
export interface JobServiceContext extends ExportLinkContext {
  readonly now: () => number;
  readonly stores: {
    readonly clients: ClientStore;
    readonly connections: ConnectionStore;
    readonly jobs: JobStore;
    readonly users: UserStore;
  };
}

export class JobService {
  constructor(private readonly ctx: JobServiceContext) {}

  private newJob(tenant: Tenant, type: JobType, connectionId: string | null, params: JobRow['params'], externalId: string | null = null): JobRow {
    return newJobRow(tenant.id, type, isoAt(this.ctx.now()), params, connectionId, externalId);
  }

  /** A database connection of the tenant, or the 400 the service answers. */
  private async databaseConnection(tenant: Tenant, id: string) {
    const connection = await this.ctx.stores.connections.get(tenant.id, id);
    if (!connection) throw connectionNotFound();
    if (connection.strategy !== 'auth0') throw managementErrors.badRequest('The connection must be a database connection.', 'invalid_body');
    return connection;
  }

  async createImport(tenant: Tenant, request: ImportRequest): Promise<Job> {
    const connection = await this.databaseConnection(tenant, request.connection_id);
    try {
      // Read once here so that a file that is not a users array is refused before it is queued.
      readUsersFile(request.users, MAX_IMPORT_USERS);
    } catch (error) {
      if (error instanceof ImportFileError) throw managementErrors.badRequest(error.message, 'invalid_body');
      throw error;
    }
    const job = this.newJob(tenant, 'users_import', connection.id, { upsert: request.upsert, send_completion_email: request.send_completion_email }, request.external_id ?? null);
    await this.ctx.stores.jobs.insert(job, request.users);
    return this.shape(tenant, job, connection.name);
  }

  async createExport(tenant: Tenant, body: Static<typeof ExportBody>): Promise<Job> {
    const connection = body.connection_id === undefined ? undefined : await this.databaseConnection(tenant, body.connection_id);
    const params = { format: body.format ?? 'json', ...(body.fields && { fields: body.fields }), ...(body.limit !== undefined && { limit: body.limit }) };
    const job = this.newJob(tenant, 'users_export', connection?.id ?? null, params);
    await this.ctx.stores.jobs.insert(job);
    return this.shape(tenant, job, connection?.name);
  }

  async createVerificationEmail(tenant: Tenant, body: Static<typeof VerificationEmailBody>): Promise<Job> {
    const user = await this.ctx.stores.users.get(tenant.id, body.user_id);
    if (!user) throw managementErrors.badRequest('The user does not exist.', 'inexistent_user');
    if (body.client_id !== undefined && !(await this.ctx.stores.clients.get(tenant.id, body.client_id))) {
      throw managementErrors.badRequest('The client does not exist', 'inexistent_client');
    }
    const job = this.newJob(tenant, 'verification_email', null, { user_id: body.user_id });
    await this.ctx.stores.jobs.insert(job);
    return this.shape(tenant, job);
  }

  async get(tenant: Tenant, id: string): Promise<Job> {
    const job = await this.ctx.stores.jobs.get(tenant.id, id);
    // An action's build is a job of the queue, not of the Management API.
    if (!job || INTERNAL_JOB_TYPES.includes(job.type)) throw jobNotFound();
    const connection = job.connection_id ? await this.ctx.stores.connections.get(tenant.id, job.connection_id) : undefined;
    return this.shape(tenant, job, connection?.name);
  }

  /** Per failing user of an import; for a failed job without them, the job; undefined: none (204). */
  async errors(tenant: Tenant, id: string): Promise<{ user: Record<string, unknown>; errors: { code: string; message: string; path: string }[] }[] | Job | undefined> {
    const job = await this.ctx.stores.jobs.get(tenant.id, id);
    // An action's build is a job of the queue, not of the Management API.
    if (!job || INTERNAL_JOB_TYPES.includes(job.type)) throw jobNotFound();
    const rows = await this.ctx.stores.jobs.errors(tenant.id, id, MAX_ERRORS);
    if (rows.length > 0) return rows.map((row) => ({ user: row.user, errors: row.errors }));
    if (job.status === 'failed') return this.shape(tenant, job);
    return undefined;
  }

  private shape(tenant: Tenant, job: JobRow, connectionName?: string): Job {
    const shaped: Job = { status: job.status, type: job.type, created_at: job.created_at, id: job.id };
    if (job.connection_id) shaped.connection_id = job.connection_id;
    if (connectionName !== undefined) shaped.connection = connectionName;
    if (job.external_id) shaped.external_id = job.external_id;
    if (job.type === 'users_import') {
      shaped.upsert = job.params.upsert === true;
      if (job.summary.total > 0) shaped.percentage_done = Math.floor((job.progress / job.summary.total) * 100);
      if (job.status === 'completed' || job.status === 'failed') shaped.summary = job.summary;
    }
    if (job.type === 'users_export') {
      shaped.format = job.params.format === 'csv' ? 'csv' : 'json';
      if (Array.isArray(job.params.fields)) shaped.fields = job.params.fields as NonNullable<Job['fields']>;
      if (typeof job.params.limit === 'number') shaped.limit = job.params.limit;
      if (job.status === 'completed') shaped.location = exportLink(this.ctx, tenant, job);
    }
    if (job.status_details) shaped.status_details = job.status_details;
    return shaped;
  }
}
