/**
 * Requesting a synchronization: a `directory_sync` job on the durable queue
 * (src/domain/jobs/runner.ts runs it) and the configuration's state set to
 * `pending`, in one transaction. At most one is queued or running per
 * connection; one completed less than MIN_INTERVAL_MS ago refuses an
 * on-demand request, as the service does ("synchronized in the last 30 minutes").
 */
import { isoAt } from '../../platform/clock.js';
import type { JobStore } from '../jobs/store.js';
import { newJobRow } from '../jobs/store.js';
import type { UnitOfWork } from '../stores.js';
import type { DirectoryProvisioningStore } from './store.js';

export const MIN_INTERVAL_MS = 30 * 60 * 1000;
/** How often a configuration with `synchronize_automatically` is synchronized. */
export const AUTOMATIC_INTERVAL_MS = 6 * 60 * 60 * 1000;

export type QueueOutcome = { queued: string } | { refused: 'in_progress' };

type QueueStores = { directoryProvisioning: DirectoryProvisioningStore; jobs: JobStore };

export async function queueSynchronization(unitOfWork: UnitOfWork<QueueStores>, tenantId: string, connectionId: string, now: number): Promise<QueueOutcome> {
  return unitOfWork.transaction(async (stores) => {
    if (await stores.directoryProvisioning.synchronizationQueued(tenantId, connectionId)) return { refused: 'in_progress' } as const;
    const job = newJobRow(tenantId, 'directory_sync', isoAt(now), {}, connectionId);
    await stores.jobs.insert(job);
    const current = await stores.directoryProvisioning.get(tenantId, connectionId);
    await stores.directoryProvisioning.setSynchronization(tenantId, connectionId, {
      last_synchronization_id: job.id,
      last_synchronization_at: current?.last_synchronization_at ?? null,
      last_synchronization_status: 'pending',
      last_synchronization_error: null,
    });
    return { queued: job.id };
  });
}

/** Queues the synchronizations of configurations with `synchronize_automatically` that are due; how many. */
export async function queueAutomaticSynchronizations(unitOfWork: UnitOfWork<QueueStores>, store: DirectoryProvisioningStore, now: number): Promise<number> {
  let queued = 0;
  for (const due of await store.dueForAutomatic(isoAt(now - AUTOMATIC_INTERVAL_MS), 100)) {
    if ('queued' in (await queueSynchronization(unitOfWork, due.tenant_id, due.connection_id, now))) queued++;
  }
  return queued;
}
