/**
 * `job_file_parts`: a users export written a page (1,000 users) at a time and
 * served by streaming the parts in order (src/domain/jobs/users-export.ts,
 * src/authentication/job-exports.ts), so that neither the job nor the download
 * holds a tenant's whole export in memory. Exports written before this
 * migration stay in `job_files` and are served from there.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_file_parts')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('job_id', idType(db), (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_file_parts_pk', ['tenant_id', 'job_id', 'kind', 'part'])
    .addForeignKeyConstraint('job_file_parts_job_fk', ['tenant_id', 'job_id'], 'jobs', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_file_parts').execute();
}
