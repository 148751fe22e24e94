/**
 * The tenant's branding (GET/PATCH /api/v2/branding): what the hosted pages
 * show (logo, favicon, primary colour, page background, font). Each value is
 * checked before anything is stored: hex colours, a gradient of two of them,
 * https URLs without credentials; a refusal changes nothing.
 */
import { httpsUrlProblem, isHexColor, pageBackgroundProblem, type Branding } from '../../domain/branding/branding.js';
import { readBranding, updateBranding, type UiSettingsContext } from '../../domain/branding/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';

const invalid = (property: string, problem: string) => managementErrors.invalidBody(`Payload validation error: '${problem}' on property ${property}.`);

function checkUrl(property: string, value: unknown): void {
  if (typeof value !== 'string') return;
  const problem = httpsUrlProblem(value);
  if (problem !== undefined) throw invalid(property, `URL ${problem}`);
}

/** Refuses the first value of `body` the pages could not use. */
function checkBranding(body: Record<string, unknown>): void {
  checkUrl('logo_url', body.logo_url);
  checkUrl('favicon_url', body.favicon_url);
  const font = body.font as { url?: unknown } | null | undefined;
  if (font) checkUrl('font.url', font.url);
  const colors = body.colors as { primary?: unknown; page_background?: unknown } | null | undefined;
  if (colors) {
    if (colors.primary !== undefined && colors.primary !== null && !isHexColor(colors.primary)) {
      throw invalid('colors.primary', 'Object didn\'t pass validation for format html-color: must be a hex color (#rgb or #rrggbb)');
    }
    if (colors.page_background !== undefined && colors.page_background !== null) {
      const problem = pageBackgroundProblem(colors.page_background);
      if (problem !== undefined) throw invalid('colors.page_background', problem);
    }
  }
}

export class BrandingService {
  constructor(private readonly ctx: UiSettingsContext) {}

  get(tenant: Tenant): Promise<Branding> {
    return readBranding(this.ctx, tenant.id);
  }

  update(tenant: Tenant, body: Record<string, unknown>): Promise<Branding> {
    checkBranding(body);
    return updateBranding(this.ctx, tenant.id, body);
  }
}
