/**
 * Remember this browser (the MFA policy's "remember the browser", the
 * service's 30 days): once a user passed a second factor in the hosted
 * login, the browser gets `__Host-gh_mfa` and the MFA step skips that user
 * in that browser until it expires (`mfa_remember_browser` lifetime, a
 * tenant may set its own in `settings.lifetimes`).
 *
 * The value is `{user hash}.{expiry}.{mac}`: an HMAC (platform form tokens,
 * a key derived from the master key) over the tenant, the user, this
 * browser's binding (`__Host-gh_browser`), the expiry and a fingerprint of
 * the user's confirmed second factors and the user's remembered-browser
 * epoch. So it is worth nothing in another browser or for another user,
 * cannot be extended, and stops working when the user's factors change (an
 * enrolment added or removed, the authenticators reset) or when the
 * Management API's invalidate-remember-browser raises the epoch (every
 * browser remembered until then asks again). One user per browser: the
 * last one who passed.
 */
import { createHash } from 'node:crypto';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { secondFactors, usableAuthenticators, type MfaContext } from '../../domain/mfa/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { MfaRememberEpochStore } from '../../domain/mfa/store.js';
import { MFA_REMEMBER_COOKIE, readCookie } from '../cookies.js';

const short = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** What remembering a browser takes. */
export interface RememberBrowserContext extends MfaContext {
  formTokens(purpose: string): FormTokens;
  readonly now: () => number;
  readonly stores: MfaContext['stores'] & { readonly mfaRememberEpochs: Pick<MfaRememberEpochStore, 'epoch'> };
}

export class RememberedBrowsers {
  #tokens: FormTokens | undefined;

  constructor(private readonly ctx: RememberBrowserContext) {}

  private get tokens(): FormTokens {
    this.#tokens ??= this.ctx.formTokens('mfa remember browser');
    return this.#tokens;
  }

  /** What the user's confirmed second factors are now (ids and enrolment times), and the user's remembered-browser epoch. */
  private async fingerprint(tenant: Tenant, userId: string): Promise<string> {
    const [authenticators, epoch] = await Promise.all([usableAuthenticators(this.ctx, tenant.id, userId), this.ctx.stores.mfaRememberEpochs.epoch(tenant.id, userId)]);
    const factors = secondFactors(authenticators);
    const list = factors.map((a) => `${a.id}:${a.enrolled_at ?? ''}`).sort().join(',');
    // Epoch 0 (never invalidated) keeps the fingerprint of before epochs existed: an upgrade does not forget remembered browsers.
    return short(epoch === 0 ? list : `${epoch}|${list}`);
  }

  /** The Set-Cookie remembering this browser for the user, who just passed a second factor. */
  async cookie(tenant: Tenant, userId: string, browser: string): Promise<string> {
    const seconds = lifetimeOf(tenant, 'mfa_remember_browser');
    const expiry = String(Math.floor(this.ctx.now() / 1000) + seconds);
    const mac = this.tokens.token(tenant.id, userId, browser, expiry, await this.fingerprint(tenant, userId));
    return `${MFA_REMEMBER_COOKIE}=${short(userId)}.${expiry}.${mac}; Path=/; Max-Age=${seconds}; Secure; HttpOnly; SameSite=Lax`;
  }

  /** Whether the browser's cookie remembers this user, unexpired, with the same factors. */
  async remembers(tenant: Tenant, userId: string, browser: string, cookieHeader: string | undefined): Promise<boolean> {
    const value = readCookie(cookieHeader, MFA_REMEMBER_COOKIE);
    const parts = value?.split('.');
    if (!parts || parts.length !== 3 || parts[0] !== short(userId) || !/^[0-9]{1,12}$/.test(parts[1]!)) return false;
    if (Number(parts[1]) * 1000 <= this.ctx.now()) return false;
    return this.tokens.matches(parts[2], tenant.id, userId, browser, parts[1]!, await this.fingerprint(tenant, userId));
  }
}
