/**
 * A scripted browser for route tests of the hosted pages through app.inject:
 * a cookie jar, GET and form POST with the jar's cookies, and the login step
 * of /authorize. Real pages, real cookies, real CSRF tokens; no browser.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { DOMAIN, type TestApp } from './app.js';

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An /authorize URL for a code flow with PKCE (the challenge of a fresh verifier unless given), overridable parameter by parameter. */
export function authorizeUrl(clientId: string, redirectUri: string, params: Record<string, string> = {}): string {
  return `/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 's',
    ...params,
  })}`;
}

/** The value of a page's hidden input. */
export function hidden(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  assert.ok(match, `no ${name} in the page`);
  return match[1]!;
}

/** The contents of a page's inline scripts, in order. */
export function inlineScripts(body: string): string[] {
  return [...body.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => match[1]!);
}

/** A browser's cookies for the tenant: set by responses, sent with requests. */
export class Jar {
  readonly #cookies = new Map<string, string>();

  take(res: LightMyRequestResponse): void {
    for (const line of ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? [])) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (attributes.some((a) => a.trim() === 'Max-Age=0')) this.#cookies.delete(name);
      else this.#cookies.set(name, pair!.slice(eq + 1));
    }
  }

  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  has(name: string): boolean {
    return this.#cookies.has(name);
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }
}

/** One browser (its jar) talking to the test app. */
export class Browser {
  readonly jar = new Jar();

  constructor(private readonly t: TestApp) {}

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, cookie: this.jar.header(), ...headers } });
    this.jar.take(res);
    return res;
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({
      method: 'POST',
      url,
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: this.jar.header(), ...headers },
      payload: new URLSearchParams(form).toString(),
    });
    this.jar.take(res);
    return res;
  }

  /** Follows /authorize to the hosted page it leads to (login, signup), which must answer 200. */
  async hostedPage(authorizeUrl: string): Promise<LightMyRequestResponse> {
    const res = await this.get(authorizeUrl);
    assert.equal(res.statusCode, 302, res.body);
    const page = await this.get(res.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return page;
  }

  /** Follows /authorize to the login page and submits the credentials; returns the login POST's response. */
  async login(authorizeUrl: string, username: string, password: string): Promise<LightMyRequestResponse> {
    const page = await this.hostedPage(authorizeUrl);
    return this.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username, password });
  }
}

/** The parameters of a redirect to `callback`, from its query or its fragment. */
export function redirectParams(res: LightMyRequestResponse, callback: string): URLSearchParams {
  assert.equal(res.statusCode, 302, res.body);
  const location = res.headers.location as string;
  assert.ok(location.startsWith(callback), location);
  const rest = location.slice(callback.length);
  return new URLSearchParams(rest.slice(1));
}
