import type { ManagementRoute } from '../../route.js';
import type { AppContext } from '../../../domain/context.js';
import { getSigningKey } from './get.js';
import { listSigningKeys } from './list.js';
import { revokeSigningKey } from './revoke.js';
import { rotateSigningKeys } from './rotate.js';
import { SigningKeyService } from './service.js';

/** /api/v2/keys/signing */
export function signingKeyRoutes(ctx: AppContext): ManagementRoute[] {
  const keys = new SigningKeyService(ctx);
  return [listSigningKeys, rotateSigningKeys, getSigningKey, revokeSigningKey].map((route) => route(ctx, keys));
}
