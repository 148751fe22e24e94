import type { ManagementRoute } from '../route.js';
import { getBreached } from './breached-password-detection/get.js';
import { updateBreached } from './breached-password-detection/update.js';
import { getBruteForce } from './brute-force-protection/get.js';
import { updateBruteForce } from './brute-force-protection/update.js';
import { AttackProtectionService, type AttackProtectionServiceContext } from './service.js';
import { getSuspiciousIp } from './suspicious-ip-throttling/get.js';
import { updateSuspiciousIp } from './suspicious-ip-throttling/update.js';

/** /api/v2/attack-protection: brute-force protection (honoured), suspicious IP throttling and breached password detection (stored). */
export function attackProtectionRoutes(ctx: AttackProtectionServiceContext): ManagementRoute[] {
  const service = new AttackProtectionService(ctx);
  return [getBruteForce, updateBruteForce, getSuspiciousIp, updateSuspiciousIp, getBreached, updateBreached].map((route) => route(ctx, service));
}
