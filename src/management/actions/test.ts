import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { TRIGGERS } from '../../domain/actions-runtime/triggers/index.js';
import type { TriggerId } from '../../domain/actions-runtime/triggers/trigger.js';
import { buildDirectory } from '../../domain/actions/build.js';
import { openActionSecrets } from '../../domain/actions/secrets.js';
import type { ActionModuleStore, ActionStore } from '../../domain/actions/store.js';
import { boundModules } from '../../domain/actions/deployed.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { managementErrors } from '../../platform/http/errors.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionParams } from './schema.js';
import type { ActionService } from './service.js';

/** What testing an action touches: the draft, its secrets, the sandbox. */
export interface TestActionContext {
  readonly actions: ActionsRuntime;
  readonly box: SecretBox;
  readonly config: { readonly dataDir: string };
  readonly stores: { readonly actions: Pick<ActionStore, 'get'>; readonly actionModules: Pick<ActionModuleStore, 'version'> };
}

const TestBody = Type.Object({ payload: Type.Object({ event: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: true }) }, { additionalProperties: false });
const TestResponse = Type.Object({ payload: Type.Record(Type.String(), Type.Unknown()) });

/**
 * POST /api/v2/actions/actions/{id}/test → 200 `{payload}`: runs the action's
 * draft on `payload.event` in the tenant's sandbox, applying nothing. The
 * payload holds `error` (name, message, stack) when the code threw, `stats`,
 * the `api` calls it made (`commands`) and its console output (`logs`).
 */
export const testActionRoute: ManagementRouteFactory<ActionService, TestActionContext> = (ctx) => managementRoute({
  method: 'POST',
  url: '/actions/actions/:id/test',
  config: { scopes: ['create:actions'] },
  schema: { params: ActionParams, body: TestBody, response: { 200: TestResponse } },
  handler: async (request) => {
    const { id } = request.params as { id: string };
    const action = await ctx.stores.actions.get(request.tenant.id, id);
    if (!action) throw managementErrors.notFound('That action does not exist.');
    const trigger = TRIGGERS[action.supported_triggers[0]?.id as TriggerId];
    if (!trigger) throw managementErrors.badRequest(`Actions of the ${action.supported_triggers[0]?.id} trigger cannot be tested.`);
    const started = Date.now();
    const run = await ctx.actions.test(
      request.tenant.id,
      trigger,
      {
        code: action.code,
        modulesDir: action.build_key === null ? null : path.resolve(buildDirectory(ctx.config.dataDir, action.build_key)),
        secrets: openActionSecrets(ctx.box, action.tenant_id, action.id, action.secrets),
        modules: await boundModules(ctx, action.tenant_id, action.modules),
      },
      (request.body as { payload: { event?: Record<string, unknown> } }).payload.event ?? {},
    );
    const total = Date.now() - started;
    return {
      payload: {
        ...(run.error && { error: run.error }),
        commands: run.commands,
        logs: run.logs,
        stats: { total_request_duration_ms: total, action_duration_ms: run.durationMs, runtime_processing_duration_ms: Math.max(0, total - run.durationMs) },
      },
    };
  },
});
