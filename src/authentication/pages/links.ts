/** The pages every emailed link shares: the link is not (or no longer) valid, and its form could not be verified. */
import { html, page, type Localized, type PageDocument } from './html.js';

export function invalidLink(description: Localized<string>): PageDocument {
  return page(
    (ui) => ui.text('common', 'common', 'invalidLinkPageTitle'),
    (ui) => html`<h1>${ui.text('common', 'common', 'invalidLinkTitle')}</h1><p class="error" role="alert">${typeof description === 'function' ? description(ui) : description}</p>`,
  );
}

export function refusedLinkPage(): PageDocument {
  return page(
    (ui) => ui.text('common', 'common', 'refusedPageTitle'),
    (ui) => html`<h1>${ui.text('common', 'common', 'refusedTitle')}</h1><p class="error" role="alert">${ui.text('common', 'common', 'refusedLinkDescription')}</p>`,
  );
}
