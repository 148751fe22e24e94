/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
export type LogStreamStatus = 'active' | 'paused' | 'suspended';

export type LogStreamContentFormat = 'JSONLINES' | 'JSONARRAY' | 'JSONOBJECT';

/** The sink of an `http` log stream as stored; its Authorization header is sealed apart (`authorization_enc`). */
export interface LogStreamHttpSink {
  httpEndpoint: string;
  httpContentType?: string;
  httpContentFormat?: LogStreamContentFormat;
}

/**
 * Log streams (migration 0065): each is a cursor over the tenant's log
 * (`cursor`, the last `log_id` delivered) with its own retry schedule and a
 * lease (`lease_owner`, `lease_until`) so one process sends a batch at a time.
 */
export interface LogStreamRow {
  tenant_id: string;
  /** `lst_…` */
  id: string;
  name: string;
  type: 'http';
  status: LogStreamStatus;
  filters: { type: 'category'; name: string }[];
  sink: LogStreamHttpSink;
  /** The sealed `httpAuthorization`, never returned. */
  authorization_enc: string | null;
  cursor: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}
