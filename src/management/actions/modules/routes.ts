import type { ManagementRoute } from '../../route.js';
import { listActionModuleActions } from './actions-list.js';
import { createActionModule } from './create.js';
import { deleteActionModule } from './delete.js';
import { getActionModule } from './get.js';
import { listActionModules } from './list.js';
import { rollbackActionModule } from './rollback.js';
import { ActionModuleService, type ActionModuleServiceContext } from './service.js';
import { updateActionModule } from './update.js';
import { createActionModuleVersion } from './versions-create.js';
import { getActionModuleVersion } from './versions-get.js';
import { listActionModuleVersions } from './versions-list.js';

/** /api/v2/actions/modules (docs/actions.md, "Modules"). */
export function actionModuleRoutes(ctx: ActionModuleServiceContext): ManagementRoute[] {
  const modules = new ActionModuleService(ctx);
  return [
    listActionModules,
    createActionModule,
    getActionModule,
    updateActionModule,
    deleteActionModule,
    listActionModuleActions,
    rollbackActionModule,
    listActionModuleVersions,
    createActionModuleVersion,
    getActionModuleVersion,
  ].map((route) => route(ctx, modules));
}
