import type { ManagementRoute } from '../route.js';
import { createProfile } from './create.js';
import { deleteProfile } from './delete.js';
import { getProfile } from './get.js';
import { listProfiles } from './list.js';
import { TokenExchangeProfileService, type TokenExchangeProfileServiceContext } from './service.js';
import { updateProfile } from './update.js';

/** /api/v2/token-exchange-profiles */
export function tokenExchangeProfileRoutes(ctx: TokenExchangeProfileServiceContext): ManagementRoute[] {
  const profiles = new TokenExchangeProfileService(ctx);
  return [listProfiles, createProfile, getProfile, updateProfile, deleteProfile].map((route) => route(ctx, profiles));
}
