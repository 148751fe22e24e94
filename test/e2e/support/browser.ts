/**
 * A scripted browser for the black-box login flows: HTTPS to one server
 * origin (its certificate trusted explicitly, as in ./https.ts), a cookie jar
 * of its own, and redirects followed by hand, hop by hop, for as long as they
 * stay on that origin. A redirect elsewhere (the application's callback or
 * post-logout URL) ends the navigation, as a browser handing the URL to the
 * application would: nothing needs to listen there.
 *
 * The jar is deliberately small: the server sets host-only cookies with
 * `Path=/`, so a cookie is kept by name and removed by `Max-Age=0` (RFC 6265
 * §5.2.2, §5.3 step 11); attributes are kept raw for assertions.
 */
import { httpsRequest, type HttpResult } from './https.js';

/** One request of a navigation, with the Location it answered (resolved against its URL). */
export interface Hop {
  url: URL;
  method: string;
  status: number;
  location?: URL;
  setCookie: string[];
}

export interface Navigation {
  hops: Hop[];
  /** The last response on the server's origin. */
  last: HttpResult;
  /** Where a redirect off the server's origin pointed, if one ended the navigation. */
  leftTo?: URL;
}

const MAX_HOPS = 10;

export class ScriptedBrowser {
  private readonly jar = new Map<string, string>();

  constructor(
    private readonly origin: string,
    private readonly ca: string | Buffer,
  ) {}

  /** The value of a cookie in the jar. */
  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Puts a cookie in the jar, e.g. one a logout has cleared, to replay it. */
  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  /** GET, following same-origin redirects. */
  navigate(url: string | URL): Promise<Navigation> {
    return this.follow(new URL(url, this.origin), 'GET');
  }

  /** POST an application/x-www-form-urlencoded form, following same-origin redirects (as GET, RFC 9110 §15.4.3). */
  submit(url: string | URL, form: Record<string, string>): Promise<Navigation> {
    return this.follow(new URL(url, this.origin), 'POST', new URLSearchParams(form).toString());
  }

  private async follow(start: URL, method: string, body?: string): Promise<Navigation> {
    const hops: Hop[] = [];
    let url = start;
    for (;;) {
      if (url.origin !== this.origin) throw new Error(`the browser only talks to ${this.origin}, not ${url.origin}`);
      if (hops.length === MAX_HOPS) throw new Error(`more than ${MAX_HOPS} redirects from ${start.href}`);
      const response = await this.request(url, hops.length === 0 ? method : 'GET', hops.length === 0 ? body : undefined);
      const hop = this.record(url, hops.length === 0 ? method : 'GET', response);
      hops.push(hop);
      if (hop.location === undefined) return { hops, last: response };
      if (hop.location.origin !== this.origin) return { hops, last: response, leftTo: hop.location };
      url = hop.location;
    }
  }

  private request(url: URL, method: string, body: string | undefined): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookies = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookies !== '') headers.cookie = cookies;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    return httpsRequest(url.href, { ca: this.ca, method, headers, ...(body !== undefined && { body }) });
  }

  private record(url: URL, method: string, response: HttpResult): Hop {
    const raw = response.headers['set-cookie'];
    const setCookie = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    for (const header of setCookie) this.store(header);
    const redirect = response.status >= 300 && response.status < 400 && typeof response.headers.location === 'string';
    return { url, method, status: response.status, setCookie, ...(redirect && { location: new URL(response.headers.location!, url) }) };
  }

  private store(header: string): void {
    const cookie = parseSetCookie(header);
    if (!cookie) return;
    const maxAge = cookie.attributes.get('max-age');
    if (maxAge !== undefined && Number(maxAge) <= 0) this.jar.delete(cookie.name);
    else this.jar.set(cookie.name, cookie.value);
  }
}

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case; a flag such as `Secure` has the value ''. */
  attributes: Map<string, string>;
}

/** One Set-Cookie header (RFC 6265 §5.2), or undefined when it has no name. */
export function parseSetCookie(header: string): SetCookie | undefined {
  const [pair = '', ...parts] = header.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const attributes = new Map<string, string>();
  for (const part of parts) {
    const at = part.indexOf('=');
    attributes.set((at === -1 ? part : part.slice(0, at)).toLowerCase(), at === -1 ? '' : part.slice(at + 1));
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

/** The Set-Cookie of one cookie in a hop, if it set that cookie. */
export function setCookieOf(hop: Hop, name: string): SetCookie | undefined {
  return hop.setCookie.map(parseSetCookie).find((cookie) => cookie?.name === name);
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };

/** The first form of a page: its action (resolved against the page URL) and its hidden fields. */
export function readForm(html: string, pageUrl: URL): { action: URL; hidden: Record<string, string> } {
  const form = /<form\b[^>]*\baction="([^"]*)"/i.exec(html);
  if (!form) throw new Error('no form with an action in the page');
  const hidden: Record<string, string> = {};
  for (const input of html.matchAll(/<input\b[^>]*>/gi)) {
    const tag = input[0];
    if (!/\btype="hidden"/i.test(tag)) continue;
    const name = /\bname="([^"]*)"/i.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/i.exec(tag)?.[1] ?? '';
    if (name !== undefined) hidden[name] = value.replace(/&(?:amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);
  }
  return { action: new URL(form[1]!.replace(/&amp;/g, '&'), pageUrl), hidden };
}
