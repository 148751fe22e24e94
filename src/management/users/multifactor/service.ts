/**
 * POST /api/v2/users/{id}/multifactor/actions/invalidate-remember-browser:
 * raises the user's remembered-browser epoch, which the MFA "remember this
 * browser" cookie's MAC covers (src/authentication/mfa/remember-browser.ts),
 * so every browser remembered until now asks for the second factor at the
 * next login; the ones remembered afterwards are remembered again.
 */
import type { MfaRememberEpochStore } from '../../../domain/mfa/store.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import type { UserStore } from '../../../domain/users/store.js';
import { isoAt } from '../../../platform/clock.js';
import { userNotFound } from '../service.js';

export interface UserMultifactorServiceContext {
  readonly now: () => number;
  readonly stores: { readonly users: Pick<UserStore, 'get'>; readonly mfaRememberEpochs: Pick<MfaRememberEpochStore, 'raise'> };
}

export class UserMultifactorService {
  constructor(private readonly ctx: UserMultifactorServiceContext) {}

  /** 404 for an unknown user. */
  async invalidateRememberBrowser(tenant: Tenant, userId: string): Promise<void> {
    const user = await this.ctx.stores.users.get(tenant.id, userId);
    if (!user) throw userNotFound();
    await this.ctx.stores.mfaRememberEpochs.raise(tenant.id, user.user_id, isoAt(this.ctx.now()));
  }
}
