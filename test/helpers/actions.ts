/**
 * Binding actions to triggers in tests: each action's code deployed and bound
 * in the given order, as a tenant does it.
 */
import type { BoundActionLike } from '../../src/domain/actions-runtime/bound-action.js';
import type { TestApp } from './app.js';

const bound = new WeakMap<TestApp, Map<string, BoundActionLike[]>>();

export interface TestAction {
  name: string;
  code: string;
  secrets?: Record<string, string>;
}

/** Replaces the trigger's bindings by these actions, in order. */
export async function bindActions(t: TestApp, triggerId: string, actions: TestAction[]): Promise<void> {
  let byTrigger = bound.get(t);
  if (!byTrigger) {
    byTrigger = new Map();
    bound.set(t, byTrigger);
    const table = byTrigger;
    t.ctx.actions.useSource({ boundActions: async (_tenantId, trigger) => table.get(trigger) ?? [] });
  }
  byTrigger.set(
    triggerId,
    actions.map((action, index) => ({
      actionId: `action-${triggerId}-${index}`,
      versionId: `version-${index}`,
      name: action.name,
      code: action.code,
      runtime: 'node22',
      secrets: action.secrets ?? {},
      dependencies: [],
      modulesDir: null,
    })),
  );
}
