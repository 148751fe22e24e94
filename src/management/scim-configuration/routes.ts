import type { ManagementRoute } from '../route.js';
import { createScimConfiguration } from './create.js';
import { getScimDefaultMapping } from './default-mapping.js';
import { deleteScimConfiguration } from './delete.js';
import { getScimConfiguration } from './get.js';
import { listScimConfigurations } from './list.js';
import { ScimConfigurationService, type ScimConfigurationServiceContext } from './service.js';
import { createScimToken } from './tokens/create.js';
import { deleteScimToken } from './tokens/delete.js';
import { listScimTokens } from './tokens/list.js';
import { updateScimConfiguration } from './update.js';

/** /api/v2/connections-scim-configurations, /api/v2/connections/{id}/scim-configuration and its tokens (SCIM provisioning: docs/scim.md). */
export function scimConfigurationRoutes(ctx: ScimConfigurationServiceContext): ManagementRoute[] {
  const service = new ScimConfigurationService(ctx);
  return [
    listScimConfigurations,
    createScimConfiguration,
    getScimConfiguration,
    updateScimConfiguration,
    deleteScimConfiguration,
    getScimDefaultMapping,
    createScimToken,
    listScimTokens,
    deleteScimToken,
  ].map((route) => route(ctx, service));
}
