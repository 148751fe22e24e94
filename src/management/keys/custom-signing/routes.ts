import type { ManagementRoute } from '../../route.js';
import { deleteCustomSigningKeys } from './delete.js';
import { getCustomSigningKeys } from './get.js';
import { CustomSigningKeyService, type CustomSigningKeyServiceContext } from './service.js';
import { setCustomSigningKeys } from './set.js';

/** /api/v2/keys/custom-signing */
export function customSigningKeyRoutes(ctx: CustomSigningKeyServiceContext): ManagementRoute[] {
  const keys = new CustomSigningKeyService(ctx);
  return [getCustomSigningKeys, setCustomSigningKeys, deleteCustomSigningKeys].map((route) => route(ctx, keys));
}
