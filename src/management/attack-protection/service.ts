/**
 * Business rules of /api/v2/attack-protection/*: the settings are read with
 * the service's defaults for what was never set, and a PATCH lays its
 * members over what is stored (stages member by member), in the tenant's
 * settings (../../domain/attack-protection/settings.ts). Allowlist entries
 * must be IP addresses or CIDR blocks (400 naming the first that is not).
 */
import {
  attackProtection,
  invalidAllowlistEntries,
  patchedAttackProtection,
  type AttackProtectionKind,
} from '../../domain/attack-protection/settings.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { TenantService } from '../../domain/tenants/service.js';

/** What AttackProtectionService touches. */
export interface AttackProtectionServiceContext {
  readonly tenants: TenantService;
}

export class AttackProtectionService {
  constructor(private readonly ctx: AttackProtectionServiceContext) {}

  get<K extends AttackProtectionKind>(tenant: Tenant, kind: K): ReturnType<typeof attackProtection<K>> {
    return attackProtection(tenant.settings, kind);
  }

  async update<K extends AttackProtectionKind>(tenant: Tenant, kind: K, changes: object & { allowlist?: string[] }): Promise<ReturnType<typeof attackProtection<K>>> {
    const invalid = invalidAllowlistEntries(changes.allowlist ?? []);
    if (invalid.length > 0) throw managementErrors.invalidBody(`Invalid IP address or CIDR block in allowlist: ${invalid[0]}`);
    const settings = { ...tenant.settings, attack_protection: patchedAttackProtection(tenant.settings, kind, changes) };
    await this.ctx.tenants.updateSettings(tenant, settings);
    return attackProtection(settings, kind);
  }
}
