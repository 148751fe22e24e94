import type { ManagementRoute } from '../route.js';
import { getBotDetection } from './bot-detection/get.js';
import { updateBotDetection } from './bot-detection/update.js';
import { getBreached } from './breached-password-detection/get.js';
import { updateBreached } from './breached-password-detection/update.js';
import { getBruteForce } from './brute-force-protection/get.js';
import { updateBruteForce } from './brute-force-protection/update.js';
import { getCaptcha } from './captcha/get.js';
import { updateCaptcha } from './captcha/update.js';
import { getPhoneProviderProtection } from './phone-provider-protection/get.js';
import { updatePhoneProviderProtection } from './phone-provider-protection/update.js';
import { AttackProtectionService, type AttackProtectionServiceContext } from './service.js';
import { getSuspiciousIp } from './suspicious-ip-throttling/get.js';
import { updateSuspiciousIp } from './suspicious-ip-throttling/update.js';

/**
 * /api/v2/attack-protection: brute-force protection, bot detection with its
 * CAPTCHA, and phone provider protection (honoured); suspicious IP
 * throttling and breached password detection (stored).
 */
export function attackProtectionRoutes(ctx: AttackProtectionServiceContext): ManagementRoute[] {
  const service = new AttackProtectionService(ctx);
  return [
    getBruteForce,
    updateBruteForce,
    getSuspiciousIp,
    updateSuspiciousIp,
    getBreached,
    updateBreached,
    getBotDetection,
    updateBotDetection,
    getCaptcha,
    updateCaptcha,
    getPhoneProviderProtection,
    updatePhoneProviderProtection,
  ].map((route) => route(ctx, service));
}
