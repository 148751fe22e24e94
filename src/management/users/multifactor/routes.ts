import type { ManagementRoute } from '../../route.js';
import { invalidateRememberBrowser } from './invalidate-remember-browser.js';
import { UserMultifactorService, type UserMultifactorServiceContext } from './service.js';

/** /api/v2/users/{id}/multifactor/actions/* */
export function userMultifactorRoutes(ctx: UserMultifactorServiceContext): ManagementRoute[] {
  return [invalidateRememberBrowser(ctx, new UserMultifactorService(ctx))];
}
