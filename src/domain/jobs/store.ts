/**
 * Storage of Management API jobs, their files and their errors: the durable
 * queue of src/domain/jobs/runner.ts. Implemented by src/storage/kysely/jobs.ts.
 */
import { newPrefixedId } from '../../platform/crypto/ids.js';
import type { JobErrorRow, JobFilePartRow, JobFileRow, JobRow, JobStatus, JobSummary, JobType } from './rows.js';

/** A new pending job of the queue. */
export function newJobRow(tenantId: string, type: JobType, now: string, params: JobRow['params'], connectionId: string | null = null, externalId: string | null = null): JobRow {
  return {
    tenant_id: tenantId,
    id: newPrefixedId('job', 16),
    type,
    status: 'pending',
    connection_id: connectionId,
    external_id: externalId,
    params,
    progress: 0,
    summary: { failed: 0, updated: 0, inserted: 0, total: 0 },
    status_details: null,
    lease_owner: null,
    lease_expires_at: null,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
}

export interface JobStore {
  /** A new job, with its input file when it has one, atomically. */
  insert(job: JobRow, input?: string): Promise<void>;
  get(tenantId: string, id: string): Promise<JobRow | undefined>;
  /**
   * Takes the oldest job that is pending, or processing under a lease that ran
   * out before `now`, for `owner` until `leaseUntil`, with one conditional
   * UPDATE … RETURNING: of two processes asking at once, one gets the row.
   * Undefined when there is none.
   */
  claim(owner: string, now: string, leaseUntil: string): Promise<JobRow | undefined>;
  /**
   * Records progress (and extends the lease) if `owner` still holds the job;
   * false when it does not (the lease ran out and another took it): the caller
   * then rolls its batch back.
   */
  advance(tenantId: string, id: string, owner: string, change: { progress: number; summary: JobSummary; now: string; leaseUntil: string }): Promise<boolean>;
  /** Ends the job if `owner` still holds it; the lease is released. */
  finish(tenantId: string, id: string, owner: string, end: { status: JobStatus; summary: JobSummary; statusDetails: string | null; now: string }): Promise<boolean>;
  /** Errors of an import; an item already recorded is kept as it was (a redone batch adds nothing). */
  addErrors(rows: JobErrorRow[]): Promise<void>;
  /** The errors of a job, in file order, at most `limit`. */
  errors(tenantId: string, jobId: string, limit: number): Promise<JobErrorRow[]>;
  /** Writes (or replaces) a job's file. */
  putFile(row: JobFileRow): Promise<void>;
  file(tenantId: string, jobId: string, kind: JobFileRow['kind']): Promise<string | undefined>;
  /** Removes a job's output (its file and its parts): an export that starts over. */
  deleteOutput(tenantId: string, jobId: string): Promise<void>;
  /** Writes (or replaces) one part of a job's output. */
  putFilePart(row: JobFilePartRow): Promise<void>;
  /** The parts of a job's output after `afterPart` (-1 for the first), in order, at most `limit`. */
  fileParts(tenantId: string, jobId: string, afterPart: number, limit: number): Promise<Pick<JobFilePartRow, 'part' | 'content'>[]>;
}
