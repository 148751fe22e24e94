/**
 * A tiny HTML template helper for the server-rendered pages: every
 * interpolated value is escaped unless it is itself an `Html` fragment made by
 * this helper, so user data (an email with `<script>`) cannot become markup.
 */
import type { FastifyReply } from 'fastify';

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
 * The pages' policy: nothing external loads, forms post only to this origin,
 * inline styles only (no scripts at all).
 */
export const PAGE_CSP = "default-src 'none'; form-action 'self'; style-src 'unsafe-inline'";

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin-top:1rem;font-weight:600}
input[type=password],input[type=email]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem}
.error{border:2px solid #b00020;padding:.5rem .75rem;color:#b00020}.ok{color:#1b5e20}`;

/** A whole page: language, title, viewport, inline style; `refresh`: a path the page reloads to after that many seconds (no script needed). */
export function page(title: string, body: Html, refresh?: { seconds: number; url: string }): Html {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${refresh ? html`<meta http-equiv="refresh" content="${`${refresh.seconds};url=${refresh.url}`}">
` : ''}<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
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

/**
 * Sends a page with the headers every page gets: the CSP above, no framing,
 * no caching (pages are per ticket), and no Referer (the URL holds a ticket).
 * `formRedirects` are the origins a form's post may be redirected to: browsers
 * apply `form-action` to the redirects that follow a submission (CSP Level 3
 * §6.3.1.3), and a login form's answer is a redirect to the application.
 */
export function sendPage(reply: FastifyReply, status: number, content: Html, formRedirects: readonly string[] = []): FastifyReply {
  const csp = formRedirects.length === 0 ? PAGE_CSP : PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${formRedirects.join(' ')}`);
  return sendHtml(reply, status, csp, content);
}

/** Sends HTML with the headers of every page (see sendPage) under its own Content-Security-Policy. */
export function sendHtml(reply: FastifyReply, status: number, csp: string, content: Html): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(content.value);
}
