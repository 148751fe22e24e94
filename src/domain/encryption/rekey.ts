/**
 * The rekey job (`encryption_rekey`, queued by POST /keys/encryption/rekey,
 * run by src/domain/jobs/runner.ts): moves every sealed value of the tenant
 * under its new encryption key and retires the old keys, without downtime,
 * resumable at its committed progress when its process dies. Key changes
 * are configuration writes: every process reloads the tenant's keys once they
 * are committed (src/app/configuration-writes.ts), and at the latest after one
 * refresh interval.
 *
 * Progress (the job's `progress`, committed with each batch):
 *
 * - 0: the new keys exist in `pre-activation` (every process can open with
 *   them once it has reloaded its keys). After one refresh interval from the
 *   job's creation they become `active` (they seal and wrap from then on) and
 *   the tenant's previous keys `deactivated` (they still open); progress 1.
 * - 1 + i: the sources of src/domain/encryption/sealed-values.ts before the
 *   i-th are moved. A source is walked in key order, in batches; each batch's
 *   rows are rewritten, only where they still hold what was read, in one
 *   transaction with the job's lease check. A resumed job walks its source
 *   again from the start: values already under the new key are skipped
 *   without being opened or written.
 * - 1 + sources: after one more refresh interval (every process seals under
 *   the new key by then), a last walk over every source moves what was
 *   written under an old key meanwhile; it is repeated until it finds
 *   nothing. Only then are the old keys `destroyed` (their material deleted)
 *   and the job completed. A value that no key opens fails the job and keeps
 *   the old keys.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { isoAt } from '../../platform/clock.js';
import type { JobRow, JobSummary } from '../jobs/rows.js';
import type { UnitOfWork } from '../stores.js';
import type { EncryptionKeyring } from './keyring.js';
import { SEALED_VALUE_SOURCES, type Move, type SealedValueSource } from './sealed-values.js';
import type { EncryptionKeyStore, SealedRow, SealedValueStore } from './store.js';

/** Stores a rekey batch writes in one transaction. */
export interface RekeyStores {
  readonly encryptionKeys: EncryptionKeyStore;
  readonly sealedValues: SealedValueStore;
}

export interface RekeyContext {
  readonly box: SecretBox;
  readonly encryptionKeys: EncryptionKeyring;
  readonly now: () => number;
  readonly stores: RekeyStores;
  readonly unitOfWork: UnitOfWork<RekeyStores>;
  readonly settings: {
    /** How long every process takes, at most, to learn of a key change (GATEHOUSE_ENCRYPTION_KEYS_REFRESH). */
    readonly refreshMs: number;
    /** Rows a batch reads and rewrites (GATEHOUSE_REKEY_BATCH). */
    readonly batch: number;
    /** Pause between batches, so a rekey leaves the database to the traffic (GATEHOUSE_REKEY_PAUSE). */
    readonly pauseMs: number;
  };
}

/** How the job commits: the runner's lease and stop handling, with the batch's work in the same transaction. */
export interface RekeyProgress {
  /**
   * Commits `progress` and `summary` (and extends the lease), with `work` in the
   * same transaction; throws when the lease was lost or the process is stopping.
   */
  commit(progress: number, summary: JobSummary, work?: (stores: RekeyStores) => Promise<void>): Promise<void>;
}

/** The last walk found values no key opens: the old keys are kept. */
export class RekeyFailed extends Error {}

const MAX_FINAL_WALKS = 5;

export interface RekeyParams {
  master_kid: string;
  encryption_kid: string;
}

export function rekeyParams(params: JobRow['params']): RekeyParams {
  const { master_kid, encryption_kid } = params as Partial<RekeyParams>;
  if (typeof master_kid !== 'string' || typeof encryption_kid !== 'string') throw new RekeyFailed('the rekey job names no keys');
  return { master_kid, encryption_kid };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runRekey(ctx: RekeyContext, job: JobRow, progress: RekeyProgress): Promise<JobSummary> {
  const { tenant_id: tenantId } = job;
  const { master_kid: masterKid, encryption_kid: encryptionKid } = rekeyParams(job.params);
  // `updated`: rows rewritten so far; `failed`: values no key opened; `total`: the sources walked.
  const summary: JobSummary = { ...job.summary, total: SEALED_VALUE_SOURCES.length };
  let at = job.progress;

  /** Waits until `until` (ms), committing (so extending the lease) every second. */
  const waitUntil = async (until: number) => {
    while (ctx.now() < until) {
      await sleep(Math.min(1000, Math.max(until - ctx.now(), 0)));
      await progress.commit(at, { ...summary });
    }
  };

  if (at === 0) {
    await waitUntil(Date.parse(job.created_at) + ctx.settings.refreshMs);
    await progress.commit(1, { ...summary }, (stores) => activate(stores.encryptionKeys, tenantId, masterKid, encryptionKid, isoAt(ctx.now())));
    at = 1;
    await ctx.encryptionKeys.reload(tenantId);
  }
  // A resumed job's process loaded its keys at start, after the activation was committed.
  if (ctx.box.sealingKid(tenantId) !== encryptionKid) await ctx.encryptionKeys.reload(tenantId);
  if (ctx.box.sealingKid(tenantId) !== encryptionKid) throw new RekeyFailed(`the new encryption key ${encryptionKid} does not seal in this process`);

  const move: Move = (sealed, context) => {
    if (sealed === null || ctx.box.kidOf(sealed) === encryptionKid) return undefined;
    return ctx.box.seal(ctx.box.open(sealed, context), context, tenantId);
  };

  for (let i = at - 1; i < SEALED_VALUE_SOURCES.length; i++) {
    const result = await walk(ctx, tenantId, SEALED_VALUE_SOURCES[i]!, move, async (moved, work) => {
      summary.updated += moved;
      await progress.commit(at, { ...summary }, work);
    });
    summary.failed += result.failed;
    at = i + 2;
    await progress.commit(at, { ...summary });
  }

  for (let round = 0; ; round++) {
    await waitUntil(ctx.now() + ctx.settings.refreshMs);
    let moved = 0;
    let failed = 0;
    for (const source of SEALED_VALUE_SOURCES) {
      const result = await walk(ctx, tenantId, source, move, async (count, work) => {
        summary.updated += count;
        await progress.commit(at, { ...summary }, work);
      });
      moved += result.moved;
      failed += result.failed;
    }
    if (failed > 0) throw new RekeyFailed(`${failed} sealed value(s) could not be opened with any key of the tenant; the old keys are kept`);
    if (moved === 0) break;
    if (round + 1 >= MAX_FINAL_WALKS) throw new RekeyFailed('values kept being written under the old keys; the old keys are kept');
  }

  await progress.commit(at, { ...summary }, (stores) => retire(stores.encryptionKeys, tenantId, [masterKid, encryptionKid], isoAt(ctx.now())));
  await ctx.encryptionKeys.reload(tenantId);
  return summary;
}

/** One source walked in batches; values that do not open are counted and left as they are. */
async function walk(
  ctx: RekeyContext,
  tenantId: string,
  source: SealedValueSource,
  move: Move,
  commit: (moved: number, work: (stores: RekeyStores) => Promise<void>) => Promise<void>,
): Promise<{ moved: number; failed: number }> {
  let after: string[] | undefined;
  let moved = 0;
  let failed = 0;
  for (;;) {
    const rows = await ctx.stores.sealedValues.scan(source, tenantId, after, ctx.settings.batch);
    const writes: { key: string[]; expected: SealedRow; changes: SealedRow }[] = [];
    for (const row of rows) {
      try {
        const changes = source.reseal(tenantId, row, move);
        if (changes) writes.push({ key: source.key.map((k) => row[k]!), expected: row, changes });
      } catch {
        failed++;
      }
    }
    if (writes.length > 0) {
      await commit(writes.length, async (stores) => {
        for (const w of writes) await stores.sealedValues.replace(source, tenantId, w.key, pick(w.expected, source.columns), w.changes);
      });
      moved += writes.length;
    }
    if (rows.length < ctx.settings.batch || source.key.length === 0) return { moved, failed };
    after = source.key.map((k) => rows[rows.length - 1]![k]!);
    // SQLite answers synchronously: let requests be served between batches.
    await (ctx.settings.pauseMs > 0 ? sleep(ctx.settings.pauseMs) : new Promise((resolve) => setImmediate(resolve)));
  }
}

function pick(row: SealedRow, columns: readonly string[]): SealedRow {
  return Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
}

/** The new keys seal from now on; the tenant's other live master and encryption keys only open. */
async function activate(store: EncryptionKeyStore, tenantId: string, masterKid: string, encryptionKid: string, now: string): Promise<void> {
  for (const row of await store.list(tenantId)) {
    if (row.type === 'customer-provided-root-key') continue;
    if (row.kid === masterKid || row.kid === encryptionKid) await store.update(tenantId, row.kid, { state: 'active', updated_at: now });
    else if (row.state === 'active' || row.state === 'pre-activation') await store.update(tenantId, row.kid, { state: 'deactivated', updated_at: now });
  }
}

/** Every master and encryption key but the new ones is destroyed: its material is deleted. */
async function retire(store: EncryptionKeyStore, tenantId: string, keep: string[], now: string): Promise<void> {
  for (const row of await store.list(tenantId)) {
    if (row.type === 'customer-provided-root-key' || keep.includes(row.kid) || row.state === 'destroyed') continue;
    await store.update(tenantId, row.kid, { state: 'destroyed', wrapped_key: null, updated_at: now });
  }
}

/** Where a tenant's sealed values stand: how many are sealed under each key, and how many no held key opens. */
export interface SealedValueCensus {
  byKid: Record<string, number>;
  unreadable: number;
}

/**
 * Opens every sealed value of the tenant (changing nothing) and counts them
 * by the key they name: what an operator (or a test) checks after a rekey.
 */
export async function sealedValueCensus(ctx: { readonly box: SecretBox; readonly stores: { readonly sealedValues: SealedValueStore } }, tenantId: string, batch = 500): Promise<SealedValueCensus> {
  const census: SealedValueCensus = { byKid: {}, unreadable: 0 };
  const look: Move = (sealed, context) => {
    if (sealed === null) return undefined;
    const kid = ctx.box.kidOf(sealed) ?? 'unknown';
    try {
      ctx.box.open(sealed, context);
      census.byKid[kid] = (census.byKid[kid] ?? 0) + 1;
    } catch {
      census.unreadable++;
    }
    return undefined;
  };
  for (const source of SEALED_VALUE_SOURCES) {
    let after: string[] | undefined;
    for (;;) {
      const rows = await ctx.stores.sealedValues.scan(source, tenantId, after, batch);
      for (const row of rows) source.reseal(tenantId, row, look);
      if (rows.length < batch || source.key.length === 0) break;
      after = source.key.map((k) => rows[rows.length - 1]![k]!);
    }
  }
  return census;
}
