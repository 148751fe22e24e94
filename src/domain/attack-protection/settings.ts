/**
 * The tenant's attack protection settings (`/api/v2/attack-protection/*`),
 * kept in the tenant's settings (`attack_protection`), with the service's
 * defaults for what was never set:
 *
 * - brute-force protection: enabled, shields `block` and `user_notification`,
 *   no allowlist, counted per identifier and IP, 10 attempts; honoured by
 *   ../brute-force.ts;
 * - suspicious IP throttling and breached password detection: stored and
 *   returned only (README: Gatehouse's own per-IP rate limits apply, and it
 *   has no breached-password corpus);
 * - bot detection: the CAPTCHA policy of each flow, all `never` on a fresh
 *   tenant (Gatehouse has no risk score, and no CAPTCHA provider is set up
 *   until the tenant configures one); honoured by ./challenge.ts;
 * - phone provider protection: `none` on a fresh tenant; `exponential` is
 *   honoured by ./phone-backoff.ts.
 */
import { BlockList, isIP } from 'node:net';

export type BruteForceShield = 'block' | 'user_notification';
export type BruteForceMode = 'count_per_identifier_and_ip' | 'count_per_identifier';

export interface BruteForceSettings {
  enabled: boolean;
  shields: BruteForceShield[];
  allowlist: string[];
  mode: BruteForceMode;
  max_attempts: number;
}

export interface SuspiciousIpThrottlingSettings {
  enabled: boolean;
  shields: ('block' | 'admin_notification')[];
  allowlist: string[];
  stage: {
    'pre-login': { max_attempts: number; rate: number };
    'pre-user-registration': { max_attempts: number; rate: number };
  };
}

export interface BreachedPasswordDetectionSettings {
  enabled: boolean;
  shields: ('block' | 'user_notification' | 'admin_notification')[];
  admin_notification_frequency: ('immediately' | 'daily' | 'weekly' | 'monthly')[];
  method: 'standard' | 'enhanced';
  stage: {
    'pre-user-registration': { shields: ('block' | 'admin_notification')[] };
    'pre-change-password': { shields: ('block' | 'admin_notification')[] };
  };
}

export type ChallengePolicy = 'never' | 'when_risky' | 'always';

export interface BotDetectionSettings {
  bot_detection_level: 'low' | 'medium' | 'high';
  challenge_password_policy: ChallengePolicy;
  challenge_passwordless_policy: ChallengePolicy;
  challenge_password_reset_policy: ChallengePolicy;
  allowlist: string[];
  monitoring_mode_enabled: boolean;
}

export interface PhoneProviderProtectionSettings {
  /** `none` in the service's document, `default` in the `auth0` SDK's types: both mean no backoff. */
  type: 'exponential' | 'none' | 'default';
}

/** What the tenant settings hold: only what was set. */
export interface StoredAttackProtection {
  brute_force_protection?: Partial<BruteForceSettings>;
  suspicious_ip_throttling?: Partial<SuspiciousIpThrottlingSettings>;
  breached_password_detection?: Partial<BreachedPasswordDetectionSettings>;
  bot_detection?: Partial<BotDetectionSettings>;
  phone_provider_protection?: Partial<PhoneProviderProtectionSettings>;
}

export const BRUTE_FORCE_DEFAULTS: BruteForceSettings = {
  enabled: true,
  shields: ['block', 'user_notification'],
  allowlist: [],
  mode: 'count_per_identifier_and_ip',
  max_attempts: 10,
};

export const SUSPICIOUS_IP_THROTTLING_DEFAULTS: SuspiciousIpThrottlingSettings = {
  enabled: true,
  shields: ['admin_notification', 'block'],
  allowlist: [],
  stage: { 'pre-login': { max_attempts: 100, rate: 864000 }, 'pre-user-registration': { max_attempts: 50, rate: 1728000 } },
};

export const BREACHED_PASSWORD_DETECTION_DEFAULTS: BreachedPasswordDetectionSettings = {
  enabled: false,
  shields: [],
  admin_notification_frequency: [],
  method: 'standard',
  stage: { 'pre-user-registration': { shields: [] }, 'pre-change-password': { shields: [] } },
};

export const BOT_DETECTION_DEFAULTS: BotDetectionSettings = {
  bot_detection_level: 'medium',
  challenge_password_policy: 'never',
  challenge_passwordless_policy: 'never',
  challenge_password_reset_policy: 'never',
  allowlist: [],
  monitoring_mode_enabled: false,
};

export const PHONE_PROVIDER_PROTECTION_DEFAULTS: PhoneProviderProtectionSettings = { type: 'none' };

export type AttackProtectionKind = keyof StoredAttackProtection;

/** The part of the tenant's settings these live in (../tenants/settings.ts). */
type WithAttackProtection = { attack_protection?: StoredAttackProtection };

const DEFAULTS = {
  brute_force_protection: BRUTE_FORCE_DEFAULTS,
  suspicious_ip_throttling: SUSPICIOUS_IP_THROTTLING_DEFAULTS,
  breached_password_detection: BREACHED_PASSWORD_DETECTION_DEFAULTS,
  bot_detection: BOT_DETECTION_DEFAULTS,
  phone_provider_protection: PHONE_PROVIDER_PROTECTION_DEFAULTS,
} as const;

type Effective<K extends AttackProtectionKind> = (typeof DEFAULTS)[K];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base` with `changes` laid over it: objects merged member by member (stages), anything else replaced. */
function overlay<T>(base: T, changes: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(changes)) return (changes === undefined ? base : changes) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) out[key] = overlay(out[key], value);
  return out as T;
}

/** The settings of `kind` in effect for the tenant: the defaults with what was set laid over them. */
export function attackProtection<K extends AttackProtectionKind>(settings: WithAttackProtection, kind: K): Effective<K> {
  return overlay(DEFAULTS[kind], settings.attack_protection?.[kind]) as Effective<K>;
}

/** The stored settings of `kind` with `changes` (a PATCH body) laid over them. */
export function patchedAttackProtection(settings: WithAttackProtection, kind: AttackProtectionKind, changes: object): StoredAttackProtection {
  return { ...settings.attack_protection, [kind]: overlay(settings.attack_protection?.[kind] ?? {}, changes) };
}

/** An allowlist entry: an IPv4 or IPv6 address, or a CIDR block of either; anything else is undefined. */
function parseEntry(entry: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = entry.split('/');
  if (extra !== undefined) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family } : undefined;
}

/** The allowlist entries that are not an IP address or CIDR block. */
export function invalidAllowlistEntries(allowlist: readonly string[]): string[] {
  return allowlist.filter((entry) => parseEntry(entry) === undefined);
}

/** Whether `ip` is in the allowlist (IPv4-mapped IPv6 addresses count as their IPv4 address). */
export function allowlisted(allowlist: readonly string[], ip: string): boolean {
  if (allowlist.length === 0) return false;
  const list = new BlockList();
  for (const entry of allowlist) {
    const parsed = parseEntry(entry);
    if (!parsed) continue;
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const version = isIP(plain);
  return version !== 0 && list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}
