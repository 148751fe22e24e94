/**
 * A tiny HTML template helper for the server-rendered pages: every
 * interpolated value is escaped unless it is itself an `Html` fragment made by
 * this helper, so user data (an email with `<script>`) cannot become markup.
 * With the two CSP helpers every page uses (./html.ts re-exports all of them).
 */
import { createHash } from 'node:crypto';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; nested `html` fragments pass through. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/**
 * A CSP source for where a URL leads: its origin, or for a custom scheme
 * (native apps' callbacks, whose origin is opaque) the scheme alone.
 */
export function cspSourceOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  } catch {
    return undefined;
  }
}

export const cspHash = (content: string) => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
