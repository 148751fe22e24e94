/**
 * The tenant's CAPTCHA configuration (`/api/v2/attack-protection/captcha`)
 * and the providers Gatehouse can put in front of a login: each is a widget
 * (its script, the form field it posts, the origins the page's CSP must
 * allow) and a verification (a siteverify-style POST of the token with the
 * provider's secret). Selected once by id; callers never compare names.
 *
 * Verifiable: `recaptcha_v2`, `hcaptcha`, `friendly_captcha` (v1 API).
 * Refused on PATCH, each with its reason: `arkose` and `recaptcha_enterprise`
 * (Gatehouse has no client for Arkose's verify API nor for reCAPTCHA
 * Enterprise assessments), `simple_captcha` (the service's own image
 * CAPTCHA, which Gatehouse does not have).
 *
 * A fresh tenant answers `{ active_provider_id: 'auth_challenge',
 * auth_challenge: { fail_open: false } }`, the service's default. The
 * service's own challenge is not something Gatehouse has either, but that
 * default is taken back (what auth0-deploy-cli writes after reading it):
 * `auth_challenge` may be chosen, and its `fail_open` stored, while no bot
 * detection policy challenges; bot detection refuses a challenge policy
 * until a verifiable provider is active.
 *
 * Secrets (`secret`) are sealed together as one JSON object bound to the
 * tenant (`captchaSecretsContext`) and never returned.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { UpstreamFetch } from '../../platform/http/upstream-fetch.js';

export const CAPTCHA_PROVIDER_IDS = ['arkose', 'auth_challenge', 'friendly_captcha', 'hcaptcha', 'recaptcha_v2', 'recaptcha_enterprise', 'simple_captcha'] as const;
export type CaptchaProviderId = (typeof CAPTCHA_PROVIDER_IDS)[number];

/** One row per tenant that set its configuration (migration 0250). */
export interface CaptchaSettingsRow {
  tenant_id: string;
  active_provider_id: string;
  /** JSON text: provider id → its readable members. */
  providers: string;
  /** Sealed JSON text: provider id → its secret; null when none. */
  secrets_enc: string | null;
  updated_at: string;
}

/** Storage of the CAPTCHA configuration (src/storage/kysely/captcha-settings.ts). */
export interface CaptchaSettingsStore {
  /** The tenant's row, if it set one. */
  get(tenantId: string): Promise<CaptchaSettingsRow | undefined>;
  /** Stores (or replaces) the tenant's row. */
  put(row: CaptchaSettingsRow): Promise<void>;
}

/** The additional data the providers' secrets are sealed with. */
export const captchaSecretsContext = (tenantId: string) => `captcha_secrets:${tenantId}`;

/** The origins a page showing a widget must allow, by CSP directive. */
export interface CaptchaOrigins {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
  style: readonly string[];
  worker: readonly string[];
}

/** What a verification call needs. */
export interface CaptchaVerification {
  secret: string;
  siteKey: string;
  token: string;
  ip: string;
}

/** A provider Gatehouse verifies: its widget and its verification. */
export interface CaptchaProvider {
  readonly id: 'recaptcha_v2' | 'hcaptcha' | 'friendly_captcha';
  /** The provider's name, for messages. */
  readonly name: string;
  /** The script the widget loads (attributes: `module` for an ES module). */
  readonly script: { src: string; module?: boolean };
  /** The widget's element class; it carries `data-sitekey`. */
  readonly widgetClass: string;
  /** The form field the widget fills with its token. */
  readonly field: string;
  readonly origins: CaptchaOrigins;
  /** The provider's verify endpoint (overridden by the operator's setting). */
  readonly verifyUrl: string;
  /** The body of the verify POST. */
  verifyBody(v: CaptchaVerification): URLSearchParams;
}

const none: readonly string[] = [];

/** reCAPTCHA v2 (https://developers.google.com/recaptcha/docs/verify). */
const recaptchaV2: CaptchaProvider = {
  id: 'recaptcha_v2',
  name: 'reCAPTCHA v2',
  script: { src: 'https://www.google.com/recaptcha/api.js' },
  widgetClass: 'g-recaptcha',
  field: 'g-recaptcha-response',
  origins: { script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'], frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'], connect: none, style: none, worker: none },
  verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
  verifyBody: (v) => new URLSearchParams({ secret: v.secret, response: v.token, remoteip: v.ip }),
};

/** hCaptcha (https://docs.hcaptcha.com/#verify-the-user-response-server-side). */
const hcaptcha: CaptchaProvider = {
  id: 'hcaptcha',
  name: 'hCaptcha',
  script: { src: 'https://js.hcaptcha.com/1/api.js' },
  widgetClass: 'h-captcha',
  field: 'h-captcha-response',
  // hCaptcha's own CSP advice: its hosts for scripts, frames, styles and its API.
  origins: { script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], worker: none },
  verifyUrl: 'https://api.hcaptcha.com/siteverify',
  verifyBody: (v) => new URLSearchParams({ secret: v.secret, response: v.token, remoteip: v.ip, sitekey: v.siteKey }),
};

/** Friendly Captcha v1 (https://docs.friendlycaptcha.com/#/verification_api): the widget solves a puzzle in a worker. */
const FRIENDLY_WIDGET = 'https://cdn.jsdelivr.net/npm/friendly-challenge@0.9.18/';
const friendlyCaptcha: CaptchaProvider = {
  id: 'friendly_captcha',
  name: 'Friendly Captcha',
  script: { src: `${FRIENDLY_WIDGET}widget.module.min.js`, module: true },
  widgetClass: 'frc-captcha',
  field: 'frc-captcha-solution',
  origins: { script: [FRIENDLY_WIDGET], frame: none, connect: ['https://api.friendlycaptcha.com'], style: none, worker: ['blob:'] },
  verifyUrl: 'https://api.friendlycaptcha.com/api/v1/siteverify',
  verifyBody: (v) => new URLSearchParams({ solution: v.token, secret: v.secret, sitekey: v.siteKey }),
};

export const CAPTCHA_PROVIDERS: Readonly<Record<CaptchaProvider['id'], CaptchaProvider>> = { recaptcha_v2: recaptchaV2, hcaptcha, friendly_captcha: friendlyCaptcha };

/** Why Gatehouse refuses each provider it cannot verify. */
export const UNVERIFIABLE: Readonly<Record<Exclude<CaptchaProviderId, CaptchaProvider['id']>, string>> = {
  arkose: 'Gatehouse cannot verify Arkose Labs sessions (it has no client for Arkose\'s verify API)',
  recaptcha_enterprise: 'Gatehouse cannot verify reCAPTCHA Enterprise tokens (it has no client for reCAPTCHA Enterprise assessments)',
  auth_challenge: 'auth_challenge is the service\'s own challenge, which Gatehouse does not have; it can be chosen only while every bot detection challenge policy is never',
  simple_captcha: 'simple_captcha is the service\'s own image CAPTCHA, which Gatehouse does not have',
};

const VERIFIABLE_NAMES = Object.keys(CAPTCHA_PROVIDERS).join(', ');

export const isVerifiable = (id: string): id is CaptchaProvider['id'] => Object.hasOwn(CAPTCHA_PROVIDERS, id);

/** What the operation answers: the active provider's id, each provider's readable members. */
export type CaptchaSettings = { active_provider_id: string } & Record<string, unknown>;

/** A PATCH body: a provider's member replaces its stored configuration as a whole. */
export type CaptchaChanges = { active_provider_id?: string } & Record<string, unknown>;

const DEFAULT_ROW = { active_provider_id: 'auth_challenge', providers: { auth_challenge: { fail_open: false } } as Record<string, Record<string, unknown>> };

/** Members of a provider's configuration that are secrets: sealed, never returned. */
const SECRET_MEMBERS = new Set(['secret', 'api_key']);

export interface CaptchaContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly captchaSettings: CaptchaSettingsStore };
}

async function stored(ctx: Pick<CaptchaContext, 'stores'>, tenantId: string) {
  const row = await ctx.stores.captchaSettings.get(tenantId);
  if (!row) return { ...DEFAULT_ROW, secrets_enc: null as string | null };
  return { active_provider_id: row.active_provider_id, providers: JSON.parse(row.providers) as Record<string, Record<string, unknown>>, secrets_enc: row.secrets_enc };
}

/** The tenant's configuration as the operation answers it (no secrets). */
export async function readCaptcha(ctx: Pick<CaptchaContext, 'stores'>, tenantId: string): Promise<CaptchaSettings> {
  const s = await stored(ctx, tenantId);
  return { active_provider_id: s.active_provider_id, ...s.providers };
}

/**
 * Applies a PATCH; a string (the 400's message) when Gatehouse refuses it:
 * a provider it cannot verify, chosen or configured (`auth_challenge` aside,
 * see above: `challenging` says whether a bot detection policy challenges),
 * or a chosen provider without a configuration.
 */
export async function updateCaptcha(ctx: CaptchaContext, tenantId: string, changes: CaptchaChanges, challenging: boolean): Promise<CaptchaSettings | string> {
  const { active_provider_id: active, ...providers } = changes;
  if (active !== undefined && !isVerifiable(active) && !(active === 'auth_challenge' && !challenging)) return `active_provider_id ${active} is refused: ${UNVERIFIABLE[active as keyof typeof UNVERIFIABLE] ?? 'unknown provider'}. Gatehouse verifies ${VERIFIABLE_NAMES}.`;
  for (const id of Object.keys(providers)) {
    if (!isVerifiable(id) && id !== 'auth_challenge') return `${id} is refused: ${UNVERIFIABLE[id as keyof typeof UNVERIFIABLE] ?? 'unknown provider'}. Gatehouse verifies ${VERIFIABLE_NAMES}.`;
  }
  const current = await stored(ctx, tenantId);
  const secrets = current.secrets_enc === null ? {} : (JSON.parse(ctx.box.openString(current.secrets_enc, captchaSecretsContext(tenantId))) as Record<string, string>);
  const readable = { ...current.providers };
  for (const [id, config] of Object.entries(providers)) {
    const members = { ...(config as Record<string, unknown>) };
    for (const name of SECRET_MEMBERS) {
      if (typeof members[name] === 'string') secrets[id] = members[name] as string;
      delete members[name];
    }
    readable[id] = members;
  }
  const nextActive = active ?? current.active_provider_id;
  if (isVerifiable(nextActive) && (readable[nextActive]?.site_key === undefined || secrets[nextActive] === undefined)) {
    return `active_provider_id ${nextActive} needs its configuration: ${nextActive}.site_key and ${nextActive}.secret`;
  }
  const updatedAt = new Date(ctx.now()).toISOString();
  await ctx.stores.captchaSettings.put({
    tenant_id: tenantId,
    active_provider_id: nextActive,
    providers: JSON.stringify(readable),
    secrets_enc: Object.keys(secrets).length === 0 ? null : ctx.box.seal(JSON.stringify(secrets), captchaSecretsContext(tenantId), tenantId),
    updated_at: updatedAt,
  });
  return { active_provider_id: nextActive, ...readable };
}

/** The tenant's active provider, when Gatehouse can verify it: what a challenge shows and checks. */
export interface ActiveCaptcha {
  provider: CaptchaProvider;
  siteKey: string;
  secret: string;
}

export async function activeCaptcha(ctx: Pick<CaptchaContext, 'stores' | 'box'>, tenantId: string): Promise<ActiveCaptcha | undefined> {
  const s = await stored(ctx, tenantId);
  if (!isVerifiable(s.active_provider_id) || s.secrets_enc === null) return undefined;
  const secret = (JSON.parse(ctx.box.openString(s.secrets_enc, captchaSecretsContext(tenantId))) as Record<string, string>)[s.active_provider_id];
  const siteKey = s.providers[s.active_provider_id]?.site_key;
  if (secret === undefined || typeof siteKey !== 'string') return undefined;
  return { provider: CAPTCHA_PROVIDERS[s.active_provider_id], siteKey, secret };
}

/** Verify endpoints chosen by the operator (GATEHOUSE_*_VERIFY_URL), by provider; the provider's own where absent. */
export type CaptchaVerifyUrls = Partial<Record<CaptchaProvider['id'], string>>;

/**
 * Checks widget tokens with their provider, through the outbound guard
 * (the fetch given is src/platform/http/upstream-fetch.ts's). A token is
 * good only on a 200 whose JSON says `success: true`; anything else, an
 * unreachable provider included, is a refusal (fail closed).
 */
export class CaptchaVerifier {
  constructor(
    private readonly fetch: UpstreamFetch,
    private readonly urls: CaptchaVerifyUrls = {},
    /** Told when a provider could not be asked or answered off its protocol (the operator's log), never of a plain refusal. */
    private readonly unreachable: (provider: CaptchaProvider['id'], reason: string) => void = () => {},
  ) {}

  async verify(active: ActiveCaptcha, token: string, ip: string): Promise<boolean> {
    if (token === '') return false;
    const { provider } = active;
    try {
      const res = await this.fetch(this.urls[provider.id] ?? provider.verifyUrl, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: provider.verifyBody({ secret: active.secret, siteKey: active.siteKey, token, ip }),
      });
      if (res.status !== 200) {
        this.unreachable(provider.id, `the verify endpoint answered ${res.status}`);
        return false;
      }
      const answer = (await res.json()) as { success?: unknown };
      return answer.success === true;
    } catch (error) {
      this.unreachable(provider.id, (error as Error).message);
      return false;
    }
  }
}
