import type { ManagementRoute } from '../route.js';
import { getBranding } from './get.js';
import { BrandingService } from './service.js';
import { phoneTemplateRoutes } from './phone-templates/routes.js';
import { pageTemplateRoutes } from './templates/routes.js';
import { themeRoutes } from './themes/routes.js';
import { updateBranding } from './update.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';
import type { PhoneDeliveryContext, PhoneProviderContext } from '../../domain/branding/phone-providers.js';
import { phoneProviderRoutes } from './phone-providers/routes.js';

/** /api/v2/branding, its themes, its page template, its phone providers and templates */
export function brandingRoutes(ctx: UiSettingsContext & PhoneProviderContext & PhoneDeliveryContext): ManagementRoute[] {
  const branding = new BrandingService(ctx);
  return [...[getBranding, updateBranding].map((route) => route(ctx, branding)), ...themeRoutes(ctx), ...pageTemplateRoutes(ctx), ...phoneTemplateRoutes(ctx), ...phoneProviderRoutes(ctx)];
}
