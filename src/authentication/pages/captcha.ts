/**
 * The CAPTCHA widget of a challenged form (bot detection,
 * src/domain/attack-protection/challenge.ts): the provider's script and its
 * element with the tenant's site key, inside the form so the token it fills
 * in is posted with it; and the origins the page's CSP must allow for it,
 * the chosen provider's only.
 */
import type { ActiveCaptcha } from '../../domain/attack-protection/captcha.js';
import { html, type Html, type PageEmbeds } from './html.js';

export function captchaWidget(captcha: ActiveCaptcha): Html {
  const { provider, siteKey } = captcha;
  const script = provider.script.module
    ? html`<script type="module" src="${provider.script.src}" async defer></script>`
    : html`<script src="${provider.script.src}" async defer></script>`;
  return html`<div class="captcha" data-provider="${provider.id}"><div class="${provider.widgetClass}" data-sitekey="${siteKey}"></div></div>
${script}`;
}

export function captchaEmbeds(captcha: ActiveCaptcha | undefined): PageEmbeds | undefined {
  return captcha?.provider.origins;
}
