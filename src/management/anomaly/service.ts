/**
 * Anomaly blocks by IP address (GET/DELETE /api/v2/anomaly/blocks/ips/{ip})
 * over Gatehouse's brute-force protection (src/domain/brute-force.ts): an
 * address is blocked while a login from it is refused for having used up
 * its failures on some account (the tenant's `brute-force-protection`
 * settings, shared through Redis when set). Unblocking lifts every such
 * block from the address at once. Gatehouse does not throttle an address
 * across accounts (the service's Suspicious IP Throttling counter): its
 * settings are stored but not enforced, so they add no blocks here.
 */
import { isIP } from 'node:net';
import type { BruteForceProtection } from '../../domain/brute-force.js';
import { attackProtection } from '../../domain/attack-protection/settings.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';

export interface AnomalyServiceContext {
  readonly bruteForce: BruteForceProtection;
}

const MAPPED = '::ffff:';

/**
 * The forms the counters may have recorded the address in: IPv6 lower-cased,
 * and an IPv4 address also as the IPv4-mapped IPv6 address a dual-stack
 * listener reports (`::ffff:127.0.0.1`).
 */
function addresses(id: string): string[] {
  if (isIP(id) === 0) throw managementErrors.badRequest(`Path validation error: 'Object didn't pass validation for format ip: ${id}' on property id (IP address to check).`, 'invalid_uri');
  const ip = id.toLowerCase();
  const v4 = ip.startsWith(MAPPED) && isIP(ip.slice(MAPPED.length)) === 4 ? ip.slice(MAPPED.length) : isIP(ip) === 4 ? ip : undefined;
  return v4 === undefined ? [ip] : [v4, `${MAPPED}${v4}`];
}

export class AnomalyService {
  constructor(private readonly ctx: AnomalyServiceContext) {}

  /** 404 unless the address is blocked now. */
  async check(tenant: Tenant, id: string): Promise<void> {
    const policy = attackProtection(tenant.settings, 'brute_force_protection');
    let blocked = false;
    for (const ip of addresses(id)) blocked ||= (await this.ctx.bruteForce.blocksFromIp(tenant.id, ip, policy)).length > 0;
    if (!blocked) throw managementErrors.notFound('IP address specified is not currently blocked.');
  }

  async unblock(tenant: Tenant, id: string): Promise<void> {
    for (const ip of addresses(id)) await this.ctx.bruteForce.unblockIp(tenant.id, ip);
  }
}
