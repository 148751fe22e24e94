/**
 * The hosted pages' design system: one stylesheet for every page (a centred
 * card, labelled fields, a primary button, inline errors, the password
 * checklist, the "Show password" control, focus rings, dark mode by
 * `prefers-color-scheme`, phone width),
 * and the tenant's part of it (primary colour, page background, font) as CSS
 * custom properties in a second, per-tenant style element. Both are inline
 * and allowed by their SHA-256 in the page's CSP, never by 'unsafe-inline'.
 *
 * Colours the tenant picks are adjusted where text stands on them or they
 * stand for text (the button's label, links) so that contrast stays at least
 * 4.5:1 (WCAG 2.2 1.4.3) in both themes, whatever the colour.
 */
import type { Branding } from '../../domain/branding/branding.js';
import type { FontStyle, Theme } from '../../domain/branding/theme.js';

/** The service's default accent colour. */
export const DEFAULT_PRIMARY = '#635dff';

const LIGHT = { page: '#f3f4f6', card: '#ffffff', text: '#1f2328', muted: '#4d5560', border: '#6e7781', error: '#b3261e', ok: '#1a7f37', errorBg: '#fdecea', okBg: '#e8f5ec' };
const DARK = { page: '#0d1117', card: '#161b22', text: '#e6edf3', muted: '#b1bac4', border: '#8b949e', error: '#ff9b93', ok: '#6fdd8b', errorBg: '#3b1513', okBg: '#12301c' };

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  let digits = hex.slice(1);
  if (digits.length === 3 || digits.length === 4) digits = [...digits.slice(0, 3)].map((d) => d + d).join('');
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb;
}

function hexOf([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(Math.max(0, Math.min(255, c))).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance, WCAG 2.2 §relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` mixed towards `target` in small steps until it reaches `ratio` against `background`. */
function readableOn(color: string, background: string, target: string, ratio = 4.5): string {
  const from = rgbOf(color);
  const to = rgbOf(target);
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = hexOf(from.map((c, i) => c + (to[i]! - c) * t) as Rgb);
    if (contrast(mixed, background) >= ratio) return mixed;
  }
  return target;
}

/** The label colour on a button of `background`: black or white, whichever contrasts more. */
function labelOn(background: string): string {
  return contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000';
}

function backgroundOf(branding: Branding, fallback: string): string {
  const bg = branding.colors?.page_background;
  if (bg === undefined) return fallback;
  if (typeof bg === 'string') return bg;
  return `linear-gradient(${bg.angle_deg}deg, ${bg.start}, ${bg.end})`;
}

/**
 * A theme's colour without its alpha (`#rgba`, `#rrggbbaa` → `#rgb`,
 * `#rrggbb`): the pages keep text contrast by computing it, which a
 * translucent colour over an unknown background would defeat.
 */
export function opaque(hex: string): string {
  const digits = hex.slice(1);
  if (digits.length === 4) return `#${digits.slice(0, 3)}`;
  if (digits.length === 8) return `#${digits.slice(0, 6)}`;
  return hex;
}

/** Text of `color` on `background`, mixed towards black or white (whichever contrasts more) until it reaches 4.5:1. */
function textOn(color: string, background: string): string {
  const target = contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000';
  return readableOn(opaque(color), background, target);
}

/** The smallest text a theme may set, in px: a theme may say 0 %, the pages stay readable. */
const MIN_TEXT_PX = 12;

function corner(style: 'pill' | 'rounded' | 'sharp', radius: number): string {
  return style === 'pill' ? '9999px' : style === 'sharp' ? '0' : `${radius}px`;
}

/**
 * A theme as the custom properties the stylesheet reads. Every value is a
 * number, a keyword from the document's enums or a hex colour that the
 * Management API validated; URLs go through JSON.stringify. Text colours are
 * kept where they reach 4.5:1 on what they stand on (WCAG 2.2 1.4.3), and
 * mixed towards black or white until they do where they do not; the theme is
 * one palette, used in both colour schemes.
 */
function themeVars(theme: Theme): string[] {
  const { colors, borders, fonts, widget, page_background: background } = theme;
  const card = opaque(colors.widget_background);
  const inputBg = opaque(colors.input_background);
  const button = opaque(colors.primary_button);
  const px = (percent: number) => `${Math.max(MIN_TEXT_PX, (fonts.reference_text_size * percent) / 100)}px`;
  const font = (name: string, style: FontStyle) => [`--${name}-size:${px(style.size)}`, `--${name}-weight:${style.bold ? 700 : 400}`];
  return [
    `color-scheme:${contrast(card, '#ffffff') >= contrast(card, '#000000') ? 'dark' : 'light'}`,
    `--page:${opaque(background.background_color)}`,
    ...(background.background_image_url ? [`--page-image:url(${JSON.stringify(background.background_image_url)})`] : []),
    `--layout:${background.page_layout === 'left' ? 'flex-start' : background.page_layout === 'right' ? 'flex-end' : 'center'}`,
    `--card:${card}`,
    `--text:${textOn(colors.body_text, card)}`,
    `--header:${textOn(colors.header, card)}`,
    `--muted:${textOn(colors.input_labels_placeholders, card)}`,
    `--label:${textOn(colors.input_labels_placeholders, card)}`,
    `--link:${textOn(colors.links_focused_components, card)}`,
    `--focus:${textOn(colors.base_focus_color ?? colors.links_focused_components, card)}`,
    // The message boxes stand on the card: their text (--text) and icons keep the contrast computed against it.
    `--error-bg:${card}`,
    `--ok-bg:${card}`,
    `--error:${textOn(colors.error, card)}`,
    `--ok:${textOn(colors.success, card)}`,
    `--icons:${textOn(colors.icons, card)}`,
    `--border:${opaque(colors.input_border)}`,
    `--input-bg:${inputBg}`,
    `--input-text:${textOn(colors.input_filled_text, inputBg)}`,
    `--primary:${button}`,
    `--on-primary:${textOn(colors.primary_button_label, button)}`,
    `--secondary-border:${opaque(colors.secondary_button_border)}`,
    `--secondary-label:${textOn(colors.secondary_button_label, card)}`,
    `--button-radius:${corner(borders.buttons_style, borders.button_border_radius)}`,
    `--button-border-weight:${borders.button_border_weight}px`,
    `--input-radius:${corner(borders.inputs_style, borders.input_border_radius)}`,
    `--input-border-weight:${Math.max(1, borders.input_border_weight)}px`,
    `--card-radius:${borders.widget_corner_radius}px`,
    `--card-border:${borders.widget_border_weight > 0 ? `${borders.widget_border_weight}px solid ${opaque(colors.widget_border)}` : 'none'}`,
    ...(borders.show_widget_shadow ? [] : ['--card-shadow:none']),
    ...font('body', fonts.body_text),
    ...font('title', fonts.title),
    ...font('subtitle', fonts.subtitle),
    ...font('label', fonts.input_labels),
    ...font('button', fonts.buttons_text),
    ...font('link', fonts.links),
    `--link-decoration:${fonts.links_style === 'underlined' ? 'underline' : 'none'}`,
    `--header-align:${widget.header_text_alignment}`,
    `--logo-align:${widget.logo_position === 'none' ? 'center' : widget.logo_position}`,
    `--logo-height:${widget.logo_height}px`,
  ];
}

/** What a theme changes of the branding: the logo (or none) and the font. */
export function brandingWithTheme(branding: Branding, theme: Theme | undefined): Branding {
  if (!theme) return branding;
  const { logo_url: logo, logo_position: position } = theme.widget;
  const { logo_url: _logo, ...rest } = branding;
  return {
    ...rest,
    ...(position !== 'none' && (logo || branding.logo_url) ? { logo_url: logo || branding.logo_url } : {}),
    ...(theme.fonts.font_url ? { font: { url: theme.fonts.font_url } } : {}),
  };
}

/**
 * The tenant's part of the stylesheet. Every value comes from branding and
 * the theme that the Management API validated (hex colours, https URLs);
 * URLs are still written through JSON.stringify, so no character can end the
 * string. With a theme, its palette replaces the branding's colours.
 */
export function tenantStyle(branding: Branding, theme?: Theme): string {
  const look = brandingWithTheme(branding, theme);
  const font = look.font?.url ? `@font-face{font-family:"Tenant";src:url(${JSON.stringify(look.font.url)});font-display:swap}` : '';
  const family = look.font?.url ? '--font:"Tenant",system-ui,sans-serif;' : '';
  if (theme) {
    const vars = themeVars(theme).join(';');
    return `${font}:root{${family}${vars}}@media (prefers-color-scheme:dark){:root{${vars}}}`;
  }
  const primary = branding.colors?.primary ?? DEFAULT_PRIMARY;
  const vars = (mode: typeof LIGHT, dark: boolean) => {
    // The button keeps the tenant's colour when it is distinguishable from the card (3:1, non-text contrast); its label is black or white.
    const button = contrast(primary, mode.card) >= 3 ? primary : readableOn(primary, mode.card, dark ? '#ffffff' : '#000000', 3);
    return [
      `--page:${backgroundOf(branding, mode.page)}`,
      `--primary:${button}`,
      `--on-primary:${labelOn(button)}`,
      `--link:${readableOn(primary, mode.card, dark ? '#ffffff' : '#000000')}`,
    ].join(';');
  };
  return `${font}:root{${family}${vars(LIGHT, false)}}@media (prefers-color-scheme:dark){:root{${vars(DARK, true)}}}`;
}

const palette = (p: typeof LIGHT) =>
  `--card:${p.card};--text:${p.text};--muted:${p.muted};--border:${p.border};--error:${p.error};--ok:${p.ok};--error-bg:${p.errorBg};--ok-bg:${p.okBg}`;

/** The stylesheet every page shares (its hash is computed once). */
export const BASE_STYLE = `:root{color-scheme:light dark;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;${palette(LIGHT)}}
@media (prefers-color-scheme:dark){:root{${palette(DARK)}}}
*,*::before,*::after{box-sizing:border-box}
html{background:var(--page);background-image:var(--page-image,none);background-size:cover;background-position:center;background-attachment:fixed;min-height:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;justify-content:center;align-items:var(--layout,center);padding:2rem 1rem;font-family:var(--font);font-size:var(--body-size,1rem);font-weight:var(--body-weight,400);line-height:1.5;color:var(--text)}
main.card{width:100%;max-width:25rem;background:var(--card);border:var(--card-border,none);border-radius:var(--card-radius,.75rem);box-shadow:var(--card-shadow,0 1px 3px rgb(0 0 0/.2),0 8px 24px rgb(0 0 0/.12));padding:2.5rem 2rem 2rem}
.brand{text-align:var(--logo-align,center);margin-bottom:1.25rem}
.brand img{max-height:var(--logo-height,3.25rem);max-width:12rem;display:inline-block;margin:0 0 .5rem}
.brand p{margin:0;font-weight:600;color:var(--muted);font-size:.875rem;letter-spacing:.02em}
h1{font-size:var(--title-size,1.5rem);line-height:1.25;margin:0 0 .5rem;text-align:var(--header-align,center);font-weight:var(--title-weight,650);color:var(--header,var(--text))}
h1+p{text-align:var(--header-align,center);color:var(--muted);margin-top:0;font-size:var(--subtitle-size,1rem);font-weight:var(--subtitle-weight,400)}
p{margin:.75rem 0}
a{color:var(--link);text-underline-offset:.15em}
.links a{text-decoration:var(--link-decoration,underline);font-size:var(--link-size,inherit);font-weight:var(--link-weight,inherit)}
a:hover{text-decoration-thickness:2px}
form{margin:1.25rem 0 .5rem}
label{display:block;margin:1rem 0 .375rem;font-weight:var(--label-weight,600);font-size:var(--label-size,.9375rem);color:var(--label,inherit)}
input[type=text],input[type=email],input[type=password],input[type=tel],input[type=number],input[type=url],select,textarea{width:100%;padding:.7rem .8rem;font:inherit;color:var(--input-text,var(--text));background:var(--input-bg,var(--card));border:var(--input-border-weight,1px) solid var(--border);border-radius:var(--input-radius,.375rem)}
input[type=checkbox],input[type=radio]{width:1.5rem;height:1.5rem;margin:0 .5rem 0 0;vertical-align:middle;accent-color:var(--primary)}
input[aria-invalid=true]{border-color:var(--error);border-width:2px}
:focus-visible{outline:3px solid var(--focus,var(--link));outline-offset:2px}
input:focus-visible{outline-offset:0}
.password{display:flex;gap:.5rem;align-items:stretch}
.password input{flex:1 1 auto;min-width:0}
button.reveal{flex:0 1 auto;max-width:45%;padding:.375rem .75rem;background:transparent;color:var(--link);border:1px solid var(--border);font-size:.875rem;font-weight:600;line-height:1.25}
button{font:inherit;cursor:pointer;border-radius:.375rem}
button[type=submit],.button{display:block;width:100%;margin-top:1.5rem;padding:.75rem 1rem;font-weight:var(--button-weight,600);font-size:var(--button-size,inherit);background:var(--primary);color:var(--on-primary);border:var(--button-border-weight,1px) solid var(--primary);border-radius:var(--button-radius,.375rem)}
button[type=submit]:hover{filter:brightness(1.08)}
button.secondary{background:transparent;color:var(--secondary-label,var(--link));border:var(--button-border-weight,1px) solid var(--secondary-border,var(--border));margin-top:.75rem}
.choices button{margin-top:.75rem}
.error{border-left:4px solid var(--error);background:var(--error-bg);padding:.625rem .875rem;border-radius:.375rem;color:var(--text)}
.ok{color:var(--text);border-left:4px solid var(--ok);background:var(--ok-bg);padding:.625rem .875rem;border-radius:.375rem}
h1.ok{background:none;border:0;padding:0}
.links{text-align:center;font-size:.9375rem;margin-top:1.25rem}
.links p{margin:.5rem 0}
ul.links{list-style:none;padding:0}
.federated{margin-top:1.25rem}
.federated .separator{text-align:center;color:var(--muted);margin:0}
.federated button.secondary{display:block;width:100%;padding:.75rem 1rem;font-weight:600;color:var(--text)}
ul.links li{margin:.25rem 0}
.links a,footer a{display:inline-block;padding:.25rem 0;min-height:24px}
ul{padding-left:1.25rem}
ul.checklist{list-style:none;padding:0;margin:.5rem 0 0;font-size:.9375rem}
ul.checklist>li{padding-left:1.6rem;position:relative;margin:.25rem 0}
ul.checklist>li::before{content:"\\2022";position:absolute;left:.4rem;color:var(--icons,var(--muted))}
ul.checklist>li.met::before{content:"\\2713";left:.25rem;color:var(--ok);font-weight:700}
ul.checklist>li.unmet::before{content:"\\2717";left:.25rem;color:var(--error);font-weight:700}
ul.checklist ul{padding-left:1rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9375rem;word-break:break-all;background:var(--ok-bg);padding:.125rem .25rem;border-radius:.25rem}
.code{font-size:1.5rem;letter-spacing:.15em;text-align:center}
.qr{width:200px;margin:1rem auto;background:#fff;padding:8px;border-radius:.375rem}
.qr svg{display:block;width:100%;height:auto}
.identifier{display:flex;justify-content:space-between;align-items:center;gap:.5rem;border:1px solid var(--border);border-radius:.375rem;padding:.5rem .8rem;margin-top:1rem}
footer{margin-top:1.5rem;padding-top:1rem;border-top:1px solid var(--border);text-align:center;font-size:.875rem;color:var(--muted)}
@media (max-width:30rem){body{padding:0;align-items:stretch;justify-content:stretch}main.card{flex:1 0 auto;max-width:none;border-radius:0;box-shadow:none;padding:2rem 1.25rem}}
@media (forced-colors:active){button[type=submit]{border:2px solid ButtonText}}`;
