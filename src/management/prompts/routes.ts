import type { ManagementRoute } from '../route.js';
import { getCustomText } from './custom-text/get.js';
import { setCustomText } from './custom-text/put.js';
import { getPromptSettings } from './get.js';
import { PromptService } from './service.js';
import { getPartials } from './partials/get.js';
import { putPartials } from './partials/put.js';
import { PartialsService } from './partials/service.js';
import { updatePromptSettings } from './update.js';
import { bulkUpdateRendering } from './rendering/bulk-update.js';
import { getRendering } from './rendering/get.js';
import { listRendering } from './rendering/list.js';
import { RenderingService } from './rendering/service.js';
import { updateRendering } from './rendering/update.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';

/** /api/v2/prompts, the prompts' custom texts, their partials and the screens' render settings. */
export function promptRoutes(ctx: UiSettingsContext): ManagementRoute[] {
  const prompts = new PromptService(ctx);
  const partials = new PartialsService(ctx);
  const rendering = new RenderingService(ctx);
  return [
    ...[getPromptSettings, updatePromptSettings, getCustomText, setCustomText].map((route) => route(ctx, prompts)), ...[getPartials, putPartials].map((route) => route(ctx, partials)),
    ...[listRendering, bulkUpdateRendering, getRendering, updateRendering].map((route) => route(ctx, rendering)),
  ];
}
