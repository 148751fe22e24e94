import type { ManagementRoute } from '../../route.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import { createTheme } from './create.js';
import { deleteTheme } from './delete.js';
import { getDefaultTheme } from './get-default.js';
import { getTheme } from './get.js';
import { ThemeService } from './service.js';
import { updateTheme } from './update.js';

/** /api/v2/branding/themes */
export function themeRoutes(ctx: UiSettingsContext): ManagementRoute[] {
  const themes = new ThemeService(ctx);
  return [createTheme, getDefaultTheme, getTheme, updateTheme, deleteTheme].map((route) => route(ctx, themes));
}
