/**
 * The tenant's theme of the hosted pages (POST/GET/PATCH/DELETE
 * /api/v2/branding/themes): borders, colours, fonts, page background and
 * widget, as the service's document defines them. A tenant has at most one
 * theme (the service's, as auth0-deploy-cli treats it: `themes.getDefault()`
 * answers the one theme, 404 when there is none); it is stored as the
 * `theme` document of the tenant's UI settings, so a second create is
 * refused by the store's primary key, not by a read before the write.
 *
 * The values are validated by the Management API against the document's
 * schema (src/management/branding/themes/schema.ts) before they reach here;
 * the pages turn them into CSS custom properties (src/authentication/pages/theme.ts).
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { UiSettingsContext } from './service.js';

export type BorderStyle = 'pill' | 'rounded' | 'sharp';
export interface FontStyle {
  bold: boolean;
  size: number;
}

export interface ThemeBody {
  displayName?: string;
  borders: {
    button_border_radius: number;
    button_border_weight: number;
    buttons_style: BorderStyle;
    input_border_radius: number;
    input_border_weight: number;
    inputs_style: BorderStyle;
    show_widget_shadow: boolean;
    widget_border_weight: number;
    widget_corner_radius: number;
  };
  colors: {
    base_focus_color?: string;
    base_hover_color?: string;
    body_text: string;
    captcha_widget_theme?: 'auto' | 'dark' | 'light';
    error: string;
    header: string;
    icons: string;
    input_background: string;
    input_border: string;
    input_filled_text: string;
    input_labels_placeholders: string;
    links_focused_components: string;
    primary_button: string;
    primary_button_label: string;
    read_only_background?: string;
    secondary_button_border: string;
    secondary_button_label: string;
    success: string;
    widget_background: string;
    widget_border: string;
  };
  fonts: {
    body_text: FontStyle;
    buttons_text: FontStyle;
    font_url: string;
    input_labels: FontStyle;
    links: FontStyle;
    links_style: 'normal' | 'underlined';
    reference_text_size: number;
    subtitle: FontStyle;
    title: FontStyle;
  };
  page_background: { background_color: string; background_image_url: string; page_layout: 'center' | 'left' | 'right' };
  widget: {
    header_text_alignment: 'center' | 'left' | 'right';
    logo_height: number;
    logo_position: 'center' | 'left' | 'none' | 'right';
    logo_url: string;
    social_buttons_layout: 'bottom' | 'top';
  };
}

/** A stored theme, as every theme operation answers it. */
export interface Theme extends ThemeBody {
  themeId: string;
  displayName: string;
}

/** The display name the service gives a theme created without one (unconfirmed: the document gives no default; the Dashboard's is "Unnamed Theme"). */
export const DEFAULT_DISPLAY_NAME = 'Unnamed Theme';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 32 alphanumerics, the document's `themeId` pattern. */
export function newThemeId(): string {
  const bytes = randomBytes(32);
  return [...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

function toTheme(themeId: string, body: ThemeBody): Theme {
  return { ...body, displayName: body.displayName ?? DEFAULT_DISPLAY_NAME, themeId };
}

export async function readTheme(ctx: UiSettingsContext, tenantId: string): Promise<Theme | undefined> {
  return (await ctx.stores.uiSettings.get(tenantId, 'theme', ''))?.value as Theme | undefined;
}

/** The tenant's new theme, or undefined when it already has one. */
export async function createTheme(ctx: UiSettingsContext, tenantId: string, body: ThemeBody): Promise<Theme | undefined> {
  const theme = toTheme(newThemeId(), body);
  const inserted = await ctx.stores.uiSettings.insertNew({ tenant_id: tenantId, kind: 'theme', key: '', value: { ...theme }, updated_at: isoAt(ctx.now()) });
  return inserted ? theme : undefined;
}

/**
 * Replaces the theme `themeId` (the document's PATCH requires every group,
 * so it is a replacement; the display name is kept when none is given).
 * Undefined when the tenant has no theme of that id.
 */
export async function updateTheme(ctx: UiSettingsContext, tenantId: string, themeId: string, body: ThemeBody): Promise<Theme | undefined> {
  const current = await readTheme(ctx, tenantId);
  if (current?.themeId !== themeId) return undefined;
  const theme = toTheme(themeId, { ...body, displayName: body.displayName ?? current.displayName });
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'theme', key: '', value: { ...theme }, updated_at: isoAt(ctx.now()) });
  return theme;
}

/** False when the tenant has no theme of that id. */
export async function deleteTheme(ctx: UiSettingsContext, tenantId: string, themeId: string): Promise<boolean> {
  const current = await readTheme(ctx, tenantId);
  if (current?.themeId !== themeId) return false;
  return ctx.stores.uiSettings.delete(tenantId, 'theme', '');
}
