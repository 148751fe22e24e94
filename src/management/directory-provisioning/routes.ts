import type { ManagementRoute } from '../route.js';
import { createDirectoryProvisioning } from './create.js';
import { getDirectoryDefaultMapping } from './default-mapping.js';
import { deleteDirectoryProvisioning } from './delete.js';
import { getDirectoryProvisioning } from './get.js';
import { listDirectoryProvisionings } from './list.js';
import { DirectoryProvisioningService, type DirectoryProvisioningServiceContext } from './service.js';
import { createDirectorySynchronization } from './synchronizations.js';
import { listSynchronizedGroups } from './synchronized-groups/list.js';
import { replaceSynchronizedGroups } from './synchronized-groups/replace.js';
import { updateDirectoryProvisioning } from './update.js';

/** /api/v2/connections-directory-provisionings and /api/v2/connections/{id}/directory-provisioning/… (inbound directory provisioning: docs/scim.md). */
export function directoryProvisioningRoutes(ctx: DirectoryProvisioningServiceContext): ManagementRoute[] {
  const service = new DirectoryProvisioningService(ctx);
  return [
    listDirectoryProvisionings,
    createDirectoryProvisioning,
    getDirectoryProvisioning,
    updateDirectoryProvisioning,
    deleteDirectoryProvisioning,
    getDirectoryDefaultMapping,
    createDirectorySynchronization,
    listSynchronizedGroups,
    replaceSynchronizedGroups,
  ].map((route) => route(ctx, service));
}
