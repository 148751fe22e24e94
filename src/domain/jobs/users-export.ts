/**
 * A users export (POST /api/v2/jobs/users-exports): the users of the tenant,
 * or of one connection, written as JSON lines or CSV with the fields asked
 * (`{name, export_as}`: a member of the user as GET /users/{id} shows it, a
 * dotted path into app_metadata/user_metadata, or `identities[0].connection`),
 * kept a page at a time in `job_file_parts` and served gzipped, streamed,
 * through a signed link (./export-links.ts, src/authentication/job-exports.ts).
 *
 * Default fields when none are asked: user_id, email, email_verified, name,
 * nickname, given_name, family_name, username, created_at, updated_at,
 * last_login, logins_count, blocked, identities[0].connection.
 */
import type { JobRow, JobSummary } from '../rows.js';
import type { SearchNode } from '../users/search.js';
import { userFromRow } from '../users/model.js';
import type { JobContext } from './job-context.js';

export interface ExportField {
  name: string;
  export_as?: string;
}

export const DEFAULT_EXPORT_FIELDS: ExportField[] = [
  'user_id', 'email', 'email_verified', 'name', 'nickname', 'given_name', 'family_name', 'username',
  'created_at', 'updated_at', 'last_login', 'logins_count', 'blocked', 'identities[0].connection',
].map((name) => ({ name }));

const PAGE = 1000;

/** `a.b[0].c` read from a value; undefined when any step is missing. */
export function valueAt(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const step of path.split('.')) {
    const match = /^([^[\]]+)(?:\[(\d+)\])?$/.exec(step);
    if (!match || current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[match[1]!];
    if (match[2] !== undefined) current = Array.isArray(current) ? current[Number(match[2])] : undefined;
  }
  return current;
}

/** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; objects as JSON. */
function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function runUsersExport(ctx: JobContext, job: JobRow): Promise<JobSummary> {
  const fields = Array.isArray(job.params.fields) && job.params.fields.length > 0 ? (job.params.fields as ExportField[]) : DEFAULT_EXPORT_FIELDS;
  const csv = job.params.format === 'csv';
  const limit = typeof job.params.limit === 'number' ? job.params.limit : Number.MAX_SAFE_INTEGER;
  let filter: SearchNode | undefined;
  if (job.connection_id) {
    const connection = await ctx.stores.connections.get(job.tenant_id, job.connection_id);
    filter = { kind: 'term', field: { kind: 'connection' }, match: 'exact', value: connection?.name ?? '' };
  }
  // A run that starts over (another process took the job when this one's lease ran out) replaces the output.
  await ctx.stores.jobs.deleteOutput(job.tenant_id, job.id);
  // A page of users at a time, by keyset (creation time, user_id), each page one part of the file:
  // the job holds one page in memory whatever the tenant's size.
  let lines: string[] = csv ? [fields.map((f) => csvCell(f.export_as ?? f.name)).join(',')] : [];
  let count = 0;
  let part = 0;
  let after: { created_at: string; user_id: string } | undefined;
  while (count < limit) {
    const { rows } = await ctx.stores.users.search(job.tenant_id, { filter, offset: 0, ...(after && { after }), limit: Math.min(PAGE, limit - count), withTotal: false });
    for (const row of rows) {
      const user = userFromRow(row, row.connection_name);
      const values = fields.map((f) => valueAt(user, f.name));
      lines.push(csv ? values.map(csvCell).join(',') : JSON.stringify(Object.fromEntries(fields.map((f, i) => [f.export_as ?? f.name, values[i]]).filter(([, v]) => v !== undefined))));
    }
    if (lines.length) await ctx.stores.jobs.putFilePart({ tenant_id: job.tenant_id, job_id: job.id, kind: 'output', part: part++, content: `${lines.join('\n')}\n` });
    lines = [];
    count += rows.length;
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || !last) break;
    after = { created_at: last.created_at, user_id: last.user_id };
    // SQLite answers synchronously: let requests in between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { failed: 0, updated: 0, inserted: 0, total: count };
}
