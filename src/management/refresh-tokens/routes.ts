import type { ManagementRoute } from '../route.js';
import { deleteRefreshToken } from './delete.js';
import { deleteUserRefreshTokens } from './delete-for-user.js';
import { getRefreshToken } from './get.js';
import { listRefreshTokens } from './list.js';
import { listUserRefreshTokens } from './list-for-user.js';
import { revokeRefreshTokens } from './revoke.js';
import { RefreshTokenService, type RefreshTokenServiceContext } from './service.js';
import { updateRefreshToken } from './update.js';

/** /api/v2/refresh-tokens and /api/v2/users/{user_id}/refresh-tokens */
export function refreshTokenRoutes(ctx: RefreshTokenServiceContext): ManagementRoute[] {
  const tokens = new RefreshTokenService(ctx);
  return [listRefreshTokens, revokeRefreshTokens, getRefreshToken, updateRefreshToken, deleteRefreshToken, listUserRefreshTokens, deleteUserRefreshTokens].map((route) => route(ctx, tokens));
}
