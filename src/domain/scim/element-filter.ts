/**
 * The value filters of attribute paths (`emails[type eq "work"]`,
 * `organizations[primary eq true]`), evaluated by scim2-parse-filter, loaded
 * on first use (docs/architecture.md: packages only some requests need); a
 * filter that does not parse matches nothing. Shared by the SCIM endpoint and
 * directory synchronizations.
 */
import type { ElementFilter } from './mapping.js';

let elementFilter: Promise<ElementFilter> | undefined;

export function elementFilterOf(): Promise<ElementFilter> {
  return (elementFilter ??= import('scim2-parse-filter').then(({ parse, filter }) => {
    const cache = new Map<string, (element: unknown) => boolean>();
    return (expression: string) => {
      let test = cache.get(expression);
      if (!test) {
        try {
          test = filter(parse(expression));
        } catch {
          test = () => false;
        }
        if (cache.size < 1000) cache.set(expression, test);
      }
      return test;
    };
  }));
}
