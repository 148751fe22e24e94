/**
 * Management API jobs (user imports and exports, verification emails): the
 * durable queue the job runner works from (src/domain/jobs/runner.ts).
 *
 * - `jobs`: one row a job, with its lease (`lease_owner`, `lease_expires_at`:
 *   a process claims a row with one conditional UPDATE, so two processes never
 *   run one job; a dead process's lease runs out and another resumes), its
 *   progress (`progress`: the next item of the input, committed together with
 *   the users of each batch) and its `summary`.
 * - `job_files`: the uploaded import file and the export's result, kept in
 *   the database so that every process sharing it can resume or serve them.
 * - `job_errors`: per failing user of an import, the user as given and its
 *   errors, with its position and line in the file.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text')
    .addColumn('external_id', 'text')
    /** JSON: what the job was asked (upsert, format, fields, user …). */
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON: {failed, updated, inserted, total}. */
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status_details', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addPrimaryKeyConstraint('jobs_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('jobs_queue_idx').on('jobs').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('job_files')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('job_id', idType(db), (c) => c.notNull())
    /** `input` (the uploaded file) or `output` (an export). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_files_pk', ['tenant_id', 'job_id', 'kind'])
    .addForeignKeyConstraint('job_files_job_fk', ['tenant_id', 'job_id'], 'jobs', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('job_errors')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('job_id', idType(db), (c) => c.notNull())
    /** The user's index in the file (from 0): one error row a user, so a redone batch cannot add it twice. */
    .addColumn('item', 'integer', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    /** JSON: the user as given (without its hashes). */
    .addColumn('user', 'text', (c) => c.notNull())
    /** JSON: [{code, message, path}]. */
    .addColumn('errors', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_errors_pk', ['tenant_id', 'job_id', 'item'])
    .addForeignKeyConstraint('job_errors_job_fk', ['tenant_id', 'job_id'], 'jobs', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
}
