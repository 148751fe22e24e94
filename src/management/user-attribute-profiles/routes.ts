import type { ManagementRoute } from '../route.js';
import { createProfile } from './create.js';
import { deleteProfile } from './delete.js';
import { getTemplate } from './get-template.js';
import { getProfile } from './get.js';
import { listTemplates } from './list-templates.js';
import { listProfiles } from './list.js';
import { UserAttributeProfileService, type UserAttributeProfileServiceContext } from './service.js';
import { updateProfile } from './update.js';

/** /api/v2/user-attribute-profiles */
export function userAttributeProfileRoutes(ctx: UserAttributeProfileServiceContext): ManagementRoute[] {
  const profiles = new UserAttributeProfileService(ctx);
  return [listProfiles, createProfile, listTemplates, getTemplate, getProfile, updateProfile, deleteProfile].map((route) => route(ctx, profiles));
}
