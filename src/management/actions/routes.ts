import type { ManagementRoute } from '../route.js';
import { listBindings } from './bindings-list.js';
import { updateBindings } from './bindings-update.js';
import { createAction } from './create.js';
import { deleteAction } from './delete.js';
import { deployAction } from './deploy.js';
import { getExecution } from './executions-get.js';
import { getAction } from './get.js';
import { listActions } from './list.js';
import { ActionService, type ActionServiceContext } from './service.js';
import { listTriggers } from './triggers-list.js';
import { testActionRoute, type TestActionContext } from './test.js';
import { updateAction } from './update.js';
import { deployActionVersion } from './versions-deploy.js';
import { getActionVersion } from './versions-get.js';
import { listActionVersions } from './versions-list.js';
import { actionModuleRoutes } from './modules/routes.js';
import type { ActionModuleServiceContext } from './modules/service.js';

/** /api/v2/actions (docs/actions.md). */
export function actionRoutes(ctx: ActionServiceContext & TestActionContext & ActionModuleServiceContext): ManagementRoute[] {
  const actions = new ActionService(ctx);
  return [
    listActions,
    createAction,
    getAction,
    updateAction,
    deleteAction,
    deployAction,
    listActionVersions,
    getActionVersion,
    deployActionVersion,
    listTriggers,
    listBindings,
    updateBindings,
    getExecution,
    testActionRoute,
  ].map((route) => route(ctx, actions)).concat(actionModuleRoutes(ctx));
}
