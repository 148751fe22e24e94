/**
 * Binding actions to triggers in tests as a tenant does it, through the
 * Management API: each action created and deployed (`deploy: true`), then the
 * trigger's bindings replaced by them, in order.
 */
import assert from 'node:assert/strict';
import type { TestApp } from './app.js';

export interface TestAction {
  name: string;
  code: string;
  secrets?: Record<string, string>;
  dependencies?: { name: string; version: string }[];
}

const VERSIONS: Record<string, string> = { 'post-login': 'v3', 'custom-token-exchange': 'v1' };
let serial = 0;

/** Creates and deploys an action; its id. */
export async function deployAction(t: TestApp, triggerId: string, action: TestAction): Promise<string> {
  const created = await t.management('POST', '/api/v2/actions/actions', {
    body: {
      name: `${action.name}-${++serial}`,
      supported_triggers: [{ id: triggerId, version: VERSIONS[triggerId] ?? 'v2' }],
      code: action.code,
      runtime: 'node22',
      ...(action.dependencies && { dependencies: action.dependencies }),
      secrets: Object.entries(action.secrets ?? {}).map(([name, value]) => ({ name, value })),
      deploy: true,
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  return (created.json() as { id: string }).id;
}

/** Replaces the trigger's bindings by these actions, in order. */
export async function bindActions(t: TestApp, triggerId: string, actions: TestAction[]): Promise<string[]> {
  const ids: string[] = [];
  for (const action of actions) ids.push(await deployAction(t, triggerId, action));
  const bound = await t.management('PATCH', `/api/v2/actions/triggers/${triggerId}/bindings`, {
    body: { bindings: ids.map((id, index) => ({ ref: { type: 'action_id', value: id }, display_name: actions[index]!.name })) },
  });
  assert.equal(bound.statusCode, 200, bound.body);
  return ids;
}
