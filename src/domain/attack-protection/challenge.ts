/**
 * Bot detection's CAPTCHA challenge (`/api/v2/attack-protection/bot-detection`):
 * whether a flow's attempt must solve the tenant's CAPTCHA (./captcha.ts),
 * and the check of its token.
 *
 * - `never`: no challenge; `always`: every attempt;
 * - `when_risky`: Gatehouse has no risk score, so "risky" is its own
 *   signal: the attempt's brute-force counter (identifier and IP, per the
 *   brute-force settings) already holds a failed password check in the
 *   current window (../brute-force.ts). A first attempt is not challenged;
 *   the page after a wrong password is.
 * - an address in bot detection's `allowlist` (IPs and CIDR blocks) is
 *   never challenged;
 * - `monitoring_mode_enabled`: a missing or refused token is reported
 *   (`monitored`) and the attempt goes on.
 *
 * A policy other than `never` is accepted only while a provider Gatehouse
 * verifies is active, so a challenge always has one.
 */
import type { Tenant } from '../tenants/tenant.js';
import { activeCaptcha, type ActiveCaptcha, type CaptchaContext, type CaptchaVerifier } from './captcha.js';
import { allowlisted, attackProtection } from './settings.js';

export type ChallengeFlow = 'password' | 'passwordless' | 'password_reset';

export interface ChallengeContext extends Pick<CaptchaContext, 'stores' | 'box'> {
  readonly captcha: CaptchaVerifier;
}

/** The CAPTCHA the attempt must solve, or undefined. `risky` is asked only under `when_risky`. */
export async function challengeFor(ctx: ChallengeContext, tenant: Tenant, flow: ChallengeFlow, ip: string, risky: () => Promise<boolean>): Promise<ActiveCaptcha | undefined> {
  const settings = attackProtection(tenant.settings, 'bot_detection');
  const policy = settings[`challenge_${flow}_policy`];
  if (policy === 'never' || allowlisted(settings.allowlist, ip)) return undefined;
  if (policy === 'when_risky' && !(await risky())) return undefined;
  return activeCaptcha(ctx, tenant.id);
}

/** The outcome of a challenged attempt's token: `passed`, `refused`, or `monitored` (refused, but monitoring mode lets it through). */
export async function checkChallenge(ctx: ChallengeContext, tenant: Tenant, captcha: ActiveCaptcha, token: string | undefined, ip: string): Promise<'passed' | 'refused' | 'monitored'> {
  if (await ctx.captcha.verify(captcha, token ?? '', ip)) return 'passed';
  return attackProtection(tenant.settings, 'bot_detection').monitoring_mode_enabled ? 'monitored' : 'refused';
}
