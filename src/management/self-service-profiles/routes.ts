/**
 * /api/v2/self-service-profiles: the profiles (list, create, get, update,
 * delete), their custom text, and their SSO tickets (create, revoke); one
 * file per operation.
 */
import type { ManagementRoute } from '../route.js';
import { getSelfServiceProfileCustomText } from './custom-text/get.js';
import { setSelfServiceProfileCustomText } from './custom-text/set.js';
import { createSelfServiceProfile } from './create.js';
import { deleteSelfServiceProfile } from './delete.js';
import { getSelfServiceProfile } from './get.js';
import { listSelfServiceProfiles } from './list.js';
import { SelfServiceProfileService, type SelfServiceProfileContext } from './service.js';
import { createSsoTicket } from './sso-ticket/create.js';
import { revokeSsoTicket } from './sso-ticket/revoke.js';
import { updateSelfServiceProfile } from './update.js';

export function selfServiceProfileRoutes(ctx: SelfServiceProfileContext): ManagementRoute[] {
  const profiles = new SelfServiceProfileService(ctx);
  return [
    listSelfServiceProfiles,
    createSelfServiceProfile,
    getSelfServiceProfile,
    updateSelfServiceProfile,
    deleteSelfServiceProfile,
    getSelfServiceProfileCustomText,
    setSelfServiceProfileCustomText,
    createSsoTicket,
    revokeSsoTicket,
  ].map((route) => route(ctx, profiles));
}
