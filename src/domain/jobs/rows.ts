/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/**
 * `action_build`: an action's dependencies installed (src/domain/actions/build.ts); `encryption_rekey`: a
 * tenant's sealed values moved under a new key (src/domain/encryption/rekey.ts); `directory_sync`: a
 * connection's directory synchronized (src/domain/directory-provisioning/sync.ts). None is a Management
 * API job: GET /jobs/{id} never shows them.
 */
export type JobType = 'users_import' | 'users_export' | 'verification_email' | 'action_build' | 'encryption_rekey' | 'directory_sync';

/** Jobs that run on the queue but are not the Management API's (GET /jobs/{id} answers 404). */
export const INTERNAL_JOB_TYPES: readonly JobType[] = ['action_build', 'encryption_rekey', 'directory_sync'];

export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** What a job counts (`summary` of GET /jobs/{id}). */
export interface JobSummary {
  failed: number;
  updated: number;
  inserted: number;
  total: number;
}

/** A Management API job (migration 0070), the durable queue's row. */
export interface JobRow {
  tenant_id: string;
  /** `job_` + 16 characters. */
  id: string;
  type: JobType;
  status: JobStatus;
  connection_id: string | null;
  external_id: string | null;
  params: JsonObject;
  /** The next input item to process (imports), committed with each batch. */
  progress: number;
  summary: JobSummary;
  status_details: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** A user an import could not take (migration 0070). */
export interface JobErrorRow {
  tenant_id: string;
  job_id: string;
  item: number;
  line: number;
  user: JsonObject;
  errors: { code: string; message: string; path: string }[];
}

export interface JobFileRow {
  tenant_id: string;
  job_id: string;
  kind: 'input' | 'output';
  content: string;
}

/**
 * A part of a job's file (migration 0091): a users export is written a page at
 * a time and served by streaming its parts in order, so that neither the job
 * nor the download holds the whole file in memory.
 */
export interface JobFilePartRow {
  tenant_id: string;
  job_id: string;
  kind: 'output';
  part: number;
  content: string;
}
