import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../schema.js';
import type { JobStore } from '../../domain/jobs/store.js';
import type { JobErrorRow, JobFilePartRow, JobFileRow, JobRow, JobStatus, JobSummary } from '../../domain/jobs/rows.js';
import { atomically, type Db } from '../database.js';
import { fromStored, parsedRow, parsedRows, toStored } from '../json-columns.js';

/** How many candidates a claim looks at before giving up for this round (others took them). */
const CLAIM_CANDIDATES = 5;

export class KyselyJobStore implements JobStore {
  constructor(private readonly db: Db) {}

  async insert(job: JobRow, input?: string): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('jobs').values(toStored('jobs', job)).execute();
      if (input !== undefined) await trx.insertInto('job_files').values({ tenant_id: job.tenant_id, job_id: job.id, kind: 'input', content: input }).execute();
    });
  }

  get(tenantId: string, id: string): Promise<JobRow | undefined> {
    return parsedRow('jobs', this.db.selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  async claim(owner: string, now: string, leaseUntil: string): Promise<JobRow | undefined> {
    const claimable = (eb: ExpressionBuilder<Database, 'jobs'>) =>
      eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'processing'), eb('lease_expires_at', '<', now)])]);
    const candidates = await this.db
      .selectFrom('jobs')
      .select(['tenant_id', 'id'])
      .where(claimable)
      .orderBy('created_at')
      .limit(CLAIM_CANDIDATES)
      .execute();
    for (const candidate of candidates) {
      const row = await this.db
        .updateTable('jobs')
        .set({ status: 'processing', lease_owner: owner, lease_expires_at: leaseUntil, updated_at: now })
        .where('tenant_id', '=', candidate.tenant_id)
        .where('id', '=', candidate.id)
        .where(claimable)
        .returningAll()
        .executeTakeFirst();
      if (row) return fromStored('jobs', row);
    }
    return undefined;
  }

  /** Changes a job `owner` holds; false when it does not. */
  private async updateHeld(tenantId: string, id: string, owner: string, changes: Partial<JobRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set(toStored('jobs', changes))
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  advance(tenantId: string, id: string, owner: string, change: { progress: number; summary: JobSummary; now: string; leaseUntil: string }): Promise<boolean> {
    return this.updateHeld(tenantId, id, owner, { progress: change.progress, summary: change.summary, updated_at: change.now, lease_expires_at: change.leaseUntil });
  }

  finish(tenantId: string, id: string, owner: string, end: { status: JobStatus; summary: JobSummary; statusDetails: string | null; now: string }): Promise<boolean> {
    return this.updateHeld(tenantId, id, owner, {
      status: end.status,
      summary: end.summary,
      status_details: end.statusDetails,
      updated_at: end.now,
      completed_at: end.now,
      lease_owner: null,
      lease_expires_at: null,
    });
  }

  async addErrors(rows: JobErrorRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('job_errors')
      .values(rows.map((row) => toStored('job_errors', row)))
      .onConflict((oc) => oc.columns(['tenant_id', 'job_id', 'item']).doNothing())
      .execute();
  }

  errors(tenantId: string, jobId: string, limit: number): Promise<JobErrorRow[]> {
    return parsedRows(
      'job_errors',
      this.db.selectFrom('job_errors').selectAll().where('tenant_id', '=', tenantId).where('job_id', '=', jobId).orderBy('item').limit(limit).execute(),
    );
  }

  async putFile(row: JobFileRow): Promise<void> {
    await this.db
      .insertInto('job_files')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'job_id', 'kind']).doUpdateSet({ content: row.content }))
      .execute();
  }

  async file(tenantId: string, jobId: string, kind: JobFileRow['kind']): Promise<string | undefined> {
    const row = await this.db.selectFrom('job_files').select('content').where('tenant_id', '=', tenantId).where('job_id', '=', jobId).where('kind', '=', kind).executeTakeFirst();
    return row?.content;
  }

  async deleteOutput(tenantId: string, jobId: string): Promise<void> {
    await this.db.deleteFrom('job_file_parts').where('tenant_id', '=', tenantId).where('job_id', '=', jobId).execute();
    await this.db.deleteFrom('job_files').where('tenant_id', '=', tenantId).where('job_id', '=', jobId).where('kind', '=', 'output').execute();
  }

  async putFilePart(row: JobFilePartRow): Promise<void> {
    await this.db
      .insertInto('job_file_parts')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'job_id', 'kind', 'part']).doUpdateSet({ content: row.content }))
      .execute();
  }

  fileParts(tenantId: string, jobId: string, afterPart: number, limit: number): Promise<Pick<JobFilePartRow, 'part' | 'content'>[]> {
    return this.db
      .selectFrom('job_file_parts')
      .select(['part', 'content'])
      .where('tenant_id', '=', tenantId)
      .where('job_id', '=', jobId)
      .where('kind', '=', 'output')
      .where('part', '>', afterPart)
      .orderBy('part')
      .limit(limit)
      .execute();
  }
}
