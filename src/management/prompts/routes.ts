import type { ManagementRoute } from '../route.js';
import { getCustomText } from './custom-text/get.js';
import { setCustomText } from './custom-text/put.js';
import { getPromptSettings } from './get.js';
import { PromptService } from './service.js';
import { updatePromptSettings } from './update.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';

/** /api/v2/prompts and the prompts' custom texts. */
export function promptRoutes(ctx: UiSettingsContext): ManagementRoute[] {
  const prompts = new PromptService(ctx);
  return [getPromptSettings, updatePromptSettings, getCustomText, setCustomText].map((route) => route(ctx, prompts));
}
