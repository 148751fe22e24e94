import type { ManagementRoute } from '../route.js';
import { createProfile } from './create.js';
import { deleteProfile } from './delete.js';
import { getTemplate } from './get-template.js';
import { getProfile } from './get.js';
import { listTemplates } from './list-templates.js';
import { listProfiles } from './list.js';
import { ConnectionProfileService, type ConnectionProfileServiceContext } from './service.js';
import { updateProfile } from './update.js';

/** /api/v2/connection-profiles */
export function connectionProfileRoutes(ctx: ConnectionProfileServiceContext): ManagementRoute[] {
  const profiles = new ConnectionProfileService(ctx);
  return [listProfiles, createProfile, listTemplates, getTemplate, getProfile, updateProfile, deleteProfile].map((route) => route(ctx, profiles));
}
