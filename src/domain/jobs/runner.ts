/**
 * Runs Management API jobs from their durable queue (the `jobs` table,
 * ./store.ts). Every process runs a runner (started in src/app/server.ts); a
 * runner claims one job at a time with a lease (a conditional UPDATE …
 * RETURNING, so two processes never run one job), and works through it.
 *
 * A user import commits in batches: each batch's new users, updated users,
 * errors and the job's progress (the next user of the file) are written in
 * one transaction, which also checks that this process still holds the lease.
 * A process that stops mid-job leaves its last batch uncommitted; once the
 * lease runs out another process (or the same one restarted) claims the job
 * and starts at the committed progress, so every user of the file is written
 * exactly once. The batch is also why a failing user costs nothing to the
 * others: it is checked before the batch is written and becomes a job error.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { JobContext } from './job-context.js';
import type { JobErrorRow, JobRow, JobSummary, UserRow } from '../rows.js';
import type { Stores } from '../stores.js';
import { UserMail } from '../tickets/user-mail.js';
import { importUser, readUsersFile, userForErrors, ImportFileError, type ImportError, type ImportItem } from './users-import.js';
import { runUsersExport } from './users-export.js';
import { actionBuildParams, runActionBuild } from '../actions/build.js';
import { deployDraft } from '../actions/deploy.js';
import { RekeyFailed, runRekey, type RekeyContext, type RekeyStores } from '../encryption/rekey.js';
import { DirectoryError, runDirectorySync, type DirectorySyncContext } from '../directory-provisioning/sync.js';
import fs from 'node:fs';

/** Most users an import file may hold. */
export const MAX_IMPORT_USERS = 1_000_000;

class LeaseLost extends Error {}
/** The process is stopping: the job is handed back at its committed progress. */
class Stopping extends Error {
  constructor(readonly at: { progress: number; summary: JobSummary }) {
    super('stopping');
  }
}


const emptySummary = (): JobSummary => ({ failed: 0, updated: 0, inserted: 0, total: 0 });

export class JobRunner {
  /** This process's name on the leases it takes. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  private stopping = false;

  constructor(private readonly ctx: JobContext) {}

  /** Asks a running job to stop after its current batch and hand its lease back (a graceful shutdown). */
  stop(): void {
    this.stopping = true;
  }

  private leaseUntil(): string {
    return isoAt(this.ctx.now() + this.ctx.config.jobs.leaseMs);
  }

  /** Claims and runs jobs until none is left to claim; how many ran. */
  async runOnce(): Promise<number> {
    let ran = 0;
    while (!this.stopping) {
      const job = await this.ctx.stores.jobs.claim(this.owner, isoAt(this.ctx.now()), this.leaseUntil());
      if (!job) return ran;
      ran++;
      await this.run(job);
    }
    return ran;
  }

  private async run(job: JobRow): Promise<void> {
    try {
      if (job.type === 'users_import') await this.runImport(job);
      else if (job.type === 'action_build') await this.runActionBuild(job);
      else if (job.type === 'encryption_rekey') await this.runRekey(job);
      else if (job.type === 'directory_sync') await this.runDirectorySync(job);
      else if (job.type === 'users_export') await this.finish(job, 'completed', await runUsersExport(this.ctx, job), null);
      else await this.runVerificationEmail(job);
    } catch (error) {
      if (error instanceof Stopping) {
        // The lease is handed back at once, so another process resumes without waiting for it to run out.
        await this.ctx.stores.jobs.advance(job.tenant_id, job.id, this.owner, { ...error.at, now: isoAt(this.ctx.now()), leaseUntil: isoAt(this.ctx.now()) });
        return;
      }
      if (error instanceof LeaseLost) {
        this.ctx.logger.warn({ job: job.id }, 'job lease lost to another process');
        return;
      }
      this.ctx.logger.error({ err: error, job: job.id }, 'job failed');
      const told = error instanceof ImportFileError || error instanceof RekeyFailed;
      await this.finish(job, 'failed', job.summary, told ? error.message : 'The job failed on an internal error.');
    }
  }

  private async finish(job: JobRow, status: 'completed' | 'failed', summary: JobSummary, details: string | null): Promise<void> {
    await this.ctx.stores.jobs.finish(job.tenant_id, job.id, this.owner, { status, summary, statusDetails: details, now: isoAt(this.ctx.now()) });
  }

  private async runImport(job: JobRow): Promise<void> {
    const file = await this.ctx.stores.jobs.file(job.tenant_id, job.id, 'input');
    if (file === undefined) throw new ImportFileError('The users file is missing.');
    const items = readUsersFile(file, MAX_IMPORT_USERS);
    const summary: JobSummary = { ...emptySummary(), ...job.summary, total: items.length };
    const batch = this.ctx.config.jobs.importBatch;
    for (let start = job.progress; start < items.length; start += batch) {
      if (this.stopping) throw new Stopping({ progress: start, summary: { ...summary } });
      const slice = items.slice(start, start + batch);
      const counts = await this.ctx.unitOfWork.transaction(async (stores) => {
        const result = await importBatch(stores, job, slice, start, isoAt(this.ctx.now()));
        const next = { ...summary, inserted: summary.inserted + result.inserted, updated: summary.updated + result.updated, failed: summary.failed + result.failed };
        const held = await stores.jobs.advance(job.tenant_id, job.id, this.owner, { progress: start + slice.length, summary: next, now: isoAt(this.ctx.now()), leaseUntil: this.leaseUntil() });
        if (!held) throw new LeaseLost();
        return result;
      });
      summary.inserted += counts.inserted;
      summary.updated += counts.updated;
      summary.failed += counts.failed;
      // SQLite (better-sqlite3) answers synchronously: without this the whole import would
      // run in microtasks and no request would be served until it ended.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.finish(job, 'completed', summary, null);
    // The planner's statistics after a bulk insert (autovacuum may be off or behind): without them
    // PostgreSQL can pick a scan for the user reads that follow.
    if (summary.inserted > 0) {
      await this.ctx.stores.users.refreshStatistics().catch((err: unknown) => this.ctx.logger.warn({ err }, 'refreshing the users table statistics failed'));
    }
  }

  /** An action's dependencies installed; drafts created with `deploy: true` are deployed once built. */
  private async runActionBuild(job: JobRow): Promise<void> {
    const outcome = await runActionBuild(this.ctx, job.tenant_id, actionBuildParams(job.params));
    if (outcome.ok) {
      const key = actionBuildParams(job.params).build_key;
      await this.ctx.unitOfWork.transaction(async (stores) => {
        for (const action of await stores.actions.waitingToDeploy(job.tenant_id, key)) await deployDraft(stores, action, this.ctx.now());
      });
    }
    await this.finish(job, outcome.ok ? 'completed' : 'failed', job.summary, outcome.ok ? null : outcome.reason);
  }

  /** A rekey (src/domain/encryption/rekey.ts): each commit checks the lease; a stop hands the job back at its last commit. */
  private async runRekey(job: JobRow): Promise<void> {
    let committed = { progress: job.progress, summary: job.summary };
    const summary = await runRekey(this.rekeyContext(), job, {
      commit: async (progress, summary, work?: (stores: RekeyStores) => Promise<void>) => {
        if (this.stopping) throw new Stopping(committed);
        await this.ctx.unitOfWork.transaction(async (stores) => {
          if (work) await work(stores);
          const held = await stores.jobs.advance(job.tenant_id, job.id, this.owner, { progress, summary, now: isoAt(this.ctx.now()), leaseUntil: this.leaseUntil() });
          if (!held) throw new LeaseLost();
        });
        committed = { progress, summary };
      },
    });
    await this.finish(job, 'completed', summary, null);
  }

  /**
   * A directory synchronization (src/domain/directory-provisioning/sync.ts):
   * each page extends the lease; a stop hands the job back, and the run is
   * done again from the start (it is idempotent). Its outcome is recorded on
   * the connection's configuration as well as on the job.
   */
  private async runDirectorySync(job: JobRow): Promise<void> {
    const record = (status: 'completed' | 'failed', error: string | null) =>
      this.ctx.stores.directoryProvisioning.setSynchronization(job.tenant_id, job.connection_id ?? '', {
        last_synchronization_at: isoAt(this.ctx.now()),
        last_synchronization_status: status,
        last_synchronization_error: error,
      });
    try {
      const outcome = await runDirectorySync(this.directorySyncContext(), job, async (progress, summary) => {
        if (this.stopping) throw new Stopping({ progress: 0, summary: emptySummary() });
        const held = await this.ctx.stores.jobs.advance(job.tenant_id, job.id, this.owner, { progress, summary, now: isoAt(this.ctx.now()), leaseUntil: this.leaseUntil() });
        if (!held) throw new LeaseLost();
      });
      const { blocked: _blocked, ...summary } = outcome.summary;
      await record('completed', outcome.note ?? null);
      await this.finish(job, 'completed', summary, outcome.note ?? null);
    } catch (error) {
      if (error instanceof Stopping || error instanceof LeaseLost) throw error;
      const told = error instanceof DirectoryError || (error instanceof Error && error.name === 'UpstreamFetchError') || (error as { code?: string }).code === 'EUPSTREAM';
      const message = told ? (error as Error).message : 'The synchronization failed on an internal error.';
      if (!told) this.ctx.logger.error({ err: error, job: job.id }, 'directory synchronization failed');
      await record('failed', message);
      await this.finish(job, 'failed', job.summary, message);
    }
  }

  private directoryCa: string | undefined;
  private directorySyncContext(): DirectorySyncContext {
    const caFile = this.ctx.config.directorySync.caFile;
    if (caFile !== undefined && this.directoryCa === undefined) this.directoryCa = fs.readFileSync(caFile, 'utf8');
    return {
      now: () => this.ctx.now(),
      config: this.ctx.config,
      directoryCa: this.directoryCa,
      tenants: this.ctx.tenants,
      unitOfWork: this.ctx.unitOfWork,
      stores: this.ctx.stores,
      lookups: this.ctx.lookups,
    };
  }

  private rekeyContext(): RekeyContext {
    const { box, encryptionKeys, stores, unitOfWork, config } = this.ctx;
    return { box, encryptionKeys, stores, unitOfWork, now: () => this.ctx.now(), settings: config.encryptionKeys };
  }

  private async runVerificationEmail(job: JobRow): Promise<void> {
    const tenant = (await this.ctx.tenants.list()).find((t) => t.id === job.tenant_id);
    const userId = typeof job.params.user_id === 'string' ? job.params.user_id : '';
    const user = await this.ctx.stores.users.get(job.tenant_id, userId);
    if (!tenant || !user) return this.finish(job, 'failed', job.summary, 'The user does not exist.');
    await new UserMail(this.ctx).sendVerification(tenant, user);
    await this.finish(job, 'completed', job.summary, null);
  }
}

interface BatchResult {
  inserted: number;
  updated: number;
  failed: number;
}

const duplicated = (): ImportError => ({ code: 'DUPLICATED_USER', message: 'The user already exist and upsert parameter is false', path: '' });

/**
 * One batch of an import inside the caller's transaction: users checked,
 * new ones inserted, existing ones updated (upsert) or refused, errors recorded.
 */
async function importBatch(stores: Stores, job: JobRow, items: ImportItem[], first: number, now: string): Promise<BatchResult> {
  const connectionId = job.connection_id ?? '';
  const upsert = job.params.upsert === true;
  const errors: JobErrorRow[] = [];
  const fail = (index: number, item: ImportItem, list: ImportError[]) =>
    errors.push({
      tenant_id: job.tenant_id,
      job_id: job.id,
      item: first + index,
      line: item.line,
      user: userForErrors(item.value),
      errors: list.map((e) => ({ ...e, message: `${e.message} (user ${first + index + 1}, line ${item.line})` })),
    });

  // Checked, and told apart from earlier users of the same batch with the same email, username or id.
  const candidates: { index: number; item: ImportItem; row: UserRow; given: Partial<UserRow> }[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const result = importUser(item.value, job.tenant_id, connectionId, now);
    if ('errors' in result) return fail(index, item, result.errors);
    const keys = [`e:${result.row.email_lower}`, `i:${result.row.user_id}`, ...(result.row.username_lower ? [`u:${result.row.username_lower}`] : [])];
    if (keys.some((key) => seen.has(key))) return fail(index, item, [{ code: 'DUPLICATED_USER', message: 'The user appears more than once in the file', path: '' }]);
    keys.forEach((key) => seen.add(key));
    candidates.push({ index, item, row: result.row, given: result.given });
  });

  const existing = await stores.users.findExisting(job.tenant_id, connectionId, {
    emailsLower: candidates.map((c) => c.row.email_lower!),
    usernamesLower: candidates.flatMap((c) => (c.row.username_lower ? [c.row.username_lower] : [])),
    userIds: candidates.map((c) => c.row.user_id),
  });
  const match = (row: UserRow) =>
    existing.filter(
      (e) => e.user_id === row.user_id || (e.connection_id === connectionId && (e.email_lower === row.email_lower || (row.username_lower !== null && e.username_lower === row.username_lower))),
    );

  let updated = 0;
  const fresh: typeof candidates = [];
  for (const candidate of candidates) {
    const found = match(candidate.row);
    if (found.length === 0) {
      fresh.push(candidate);
      continue;
    }
    // One existing user of this connection, matched by email (or id): the one an upsert changes.
    const target = found[0]!;
    if (!upsert || found.length > 1 || target.connection_id !== connectionId) {
      fail(candidate.index, candidate.item, [duplicated()]);
      continue;
    }
    const { email: _email, email_lower: _lower, ...changes } = candidate.given;
    for (const key of ['app_metadata', 'user_metadata'] as const) {
      const given = changes[key];
      if (given !== undefined) changes[key] = { ...target[key], ...given };
    }
    await stores.users.update(job.tenant_id, target.user_id, { ...changes, updated_at: now });
    updated++;
  }
  const inserted = new Set(await stores.users.insertMany(fresh.map((c) => c.row)));
  for (const candidate of fresh) if (!inserted.has(candidate.row.user_id)) fail(candidate.index, candidate.item, [duplicated()]);
  await stores.jobs.addErrors(errors);
  return { inserted: inserted.size, updated, failed: errors.length };
}
