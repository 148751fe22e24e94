import type { ManagementRoute } from '../../route.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import { deletePageTemplate } from './delete.js';
import { getPageTemplate } from './get.js';
import { putPageTemplate } from './put.js';
import { PageTemplateService } from './service.js';

/** /api/v2/branding/templates/universal-login */
export function pageTemplateRoutes(ctx: UiSettingsContext): ManagementRoute[] {
  const templates = new PageTemplateService(ctx);
  return [getPageTemplate, putPageTemplate, deletePageTemplate].map((route) => route(ctx, templates));
}
