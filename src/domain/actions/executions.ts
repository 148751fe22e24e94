/**
 * Executions of triggers, as the runtime records them
 * (`ctx.stores.actionExecutions.record(row)`) and GET
 * /api/v2/actions/executions/{id} reads them: kept ten days, as the service
 * keeps them, then purged with the other expired artefacts.
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { ActionExecutionResult, ActionExecutionRow, ActionExecutionStatus } from './rows.js';

export const EXECUTION_RETENTION_MS = 10 * 24 * 60 * 60 * 1000;

/** An execution id in the service's form (32 characters, letters and digits, as `M9IqRp9wQLaYNrSwz6YPTTIwMjEwNDA0`). */
export function newExecutionId(): string {
  return randomBytes(24).toString('base64').replace(/[+/=]/g, '').slice(0, 32).padEnd(32, '0');
}

/** A new execution row, started at `now`. */
export function newExecution(tenantId: string, triggerId: string, now: number, status: ActionExecutionStatus = 'pending', results: ActionExecutionResult[] = []): ActionExecutionRow {
  return {
    tenant_id: tenantId,
    id: newExecutionId(),
    trigger_id: triggerId,
    status,
    results,
    created_at: isoAt(now),
    updated_at: isoAt(now),
    expires_at: isoAt(now + EXECUTION_RETENTION_MS),
  };
}
