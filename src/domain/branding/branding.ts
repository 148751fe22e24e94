/**
 * The tenant's branding (GET/PATCH /api/v2/branding) and its prompts'
 * settings (GET/PATCH /api/v2/prompts), as the hosted pages read them.
 *
 * Colours are hex (`#rgb` or `#rrggbb`, the service's `html-color`); the
 * page background is a colour or a linear gradient `{type:
 * 'linear-gradient', start, end, angle_deg}`; URLs are https only (the
 * service's `strict-https-uri`), since the pages load them under their CSP.
 */

export interface BrandingGradient {
  type: 'linear-gradient';
  start: string;
  end: string;
  angle_deg: number;
}

export interface Branding {
  colors?: { primary?: string; page_background?: string | BrandingGradient };
  logo_url?: string;
  favicon_url?: string;
  font?: { url?: string };
}

export interface PromptSettings {
  universal_login_experience: 'new' | 'classic';
  identifier_first: boolean;
  webauthn_platform_first_factor: boolean;
}

export const DEFAULT_PROMPT_SETTINGS: PromptSettings = { universal_login_experience: 'new', identifier_first: false, webauthn_platform_first_factor: false };

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A URL's longest accepted length: enough for a CDN path with a query. */
export const MAX_BRANDING_URL = 2048;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

/** Why `value` is not an https URL the pages may load, or undefined. */
export function httpsUrlProblem(value: string): string | undefined {
  if (value.length > MAX_BRANDING_URL) return `must be at most ${MAX_BRANDING_URL} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  return undefined;
}

/** Why `value` is not a page background (a colour, or a linear gradient of two colours), or undefined. */
export function pageBackgroundProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return isHexColor(value) ? undefined : 'must be a hex color (#rgb or #rrggbb)';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a color or a gradient object';
  const gradient = value as Record<string, unknown>;
  const extra = Object.keys(gradient).filter((k) => !['type', 'start', 'end', 'angle_deg'].includes(k));
  if (extra.length > 0) return `has unknown properties: ${extra.join(', ')}`;
  if (gradient.type !== 'linear-gradient') return "type must be 'linear-gradient'";
  if (!isHexColor(gradient.start) || !isHexColor(gradient.end)) return 'start and end must be hex colors (#rgb or #rrggbb)';
  const angle = gradient.angle_deg;
  if (typeof angle !== 'number' || !Number.isFinite(angle) || angle < -360 || angle > 360) return 'angle_deg must be a number between -360 and 360';
  return undefined;
}
