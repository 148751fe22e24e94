/**
 * Business rules of /api/v2/attack-protection/*: the settings are read with
 * the service's defaults for what was never set, and a PATCH lays its
 * members over what is stored (stages member by member), in the tenant's
 * settings (../../domain/attack-protection/settings.ts). Allowlist entries
 * must be IP addresses or CIDR blocks (400 naming the first that is not).
 * Bot detection's challenge policies other than `never` need an active
 * CAPTCHA provider Gatehouse verifies (400 otherwise); the CAPTCHA
 * configuration lives in its own store, its secrets sealed
 * (../../domain/attack-protection/captcha.ts).
 */
import {
  attackProtection,
  invalidAllowlistEntries,
  patchedAttackProtection,
  type AttackProtectionKind,
} from '../../domain/attack-protection/settings.js';
import { activeCaptcha, readCaptcha, updateCaptcha, type CaptchaChanges, type CaptchaContext, type CaptchaSettings } from '../../domain/attack-protection/captcha.js';
import type { BotDetectionSettings } from '../../domain/attack-protection/settings.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { TenantService } from '../../domain/tenants/service.js';

/** What AttackProtectionService touches. */
export interface AttackProtectionServiceContext extends CaptchaContext {
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

  /** PATCH of bot detection: a challenge policy other than `never` needs a provider Gatehouse verifies. */
  async updateBotDetection(tenant: Tenant, changes: Partial<BotDetectionSettings>): Promise<BotDetectionSettings> {
    const policies = [changes.challenge_password_policy, changes.challenge_passwordless_policy, changes.challenge_password_reset_policy];
    if (policies.some((p) => p !== undefined && p !== 'never') && !(await activeCaptcha(this.ctx, tenant.id))) {
      throw managementErrors.invalidBody(
        'A challenge policy other than never needs an active CAPTCHA provider that Gatehouse verifies (recaptcha_v2, hcaptcha or friendly_captcha): set one with PATCH /api/v2/attack-protection/captcha first',
      );
    }
    return this.update(tenant, 'bot_detection', changes);
  }

  getCaptcha(tenant: Tenant): Promise<CaptchaSettings> {
    return readCaptcha(this.ctx, tenant.id);
  }

  /** PATCH of the CAPTCHA configuration; a provider Gatehouse cannot verify is refused with the reason. */
  async updateCaptcha(tenant: Tenant, changes: CaptchaChanges): Promise<CaptchaSettings> {
    const bot = attackProtection(tenant.settings, 'bot_detection');
    const challenging = [bot.challenge_password_policy, bot.challenge_passwordless_policy, bot.challenge_password_reset_policy].some((p) => p !== 'never');
    const result = await updateCaptcha(this.ctx, tenant.id, changes, challenging);
    if (typeof result === 'string') throw managementErrors.invalidBody(result);
    return result;
  }
}
