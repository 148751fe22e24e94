import type { ManagementRoute } from '../../route.js';
import { getSigningKey } from './get.js';
import { listSigningKeys } from './list.js';
import { revokeSigningKey } from './revoke.js';
import { rotateSigningKeys } from './rotate.js';
import { SigningKeyService, type SigningKeyServiceContext } from './service.js';

/** /api/v2/keys/signing */
export function signingKeyRoutes(ctx: SigningKeyServiceContext): ManagementRoute[] {
  const keys = new SigningKeyService(ctx);
  return [listSigningKeys, rotateSigningKeys, getSigningKey, revokeSigningKey].map((route) => route(ctx, keys));
}
