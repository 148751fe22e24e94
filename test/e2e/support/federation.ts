/**
 * Support of the headless federated-login tests.
 *
 * - `FederationBrowser`: a scripted browser across origins (Gatehouse, the
 *   upstream identity providers), one cookie jar per origin, redirects
 *   followed by hand until a page answers or the navigation reaches the
 *   application's origin (nothing needs to listen there). An upstream's
 *   `form_post` page is submitted as a browser does: a cross-site POST,
 *   which carries no SameSite=Lax cookie of the target.
 * - `startStandIn`: a small OpenID provider over HTTPS that signs with jose
 *   and misbehaves on purpose where node-oidc-provider cannot be made to: one
 *   provider per path (`/t/{name}`), each with its behaviour (another
 *   `nonce`, `aud` or `iss`, an expired token, another key, `alg: none`,
 *   HS256 keyed by the client secret, an authorization response naming
 *   another issuer, a code accepted twice, endpoints on an address the
 *   outbound guard refuses, a JWKS over 1 MiB, a token endpoint that never
 *   answers, Entra ID's multi-tenant issuer template, a userinfo answer
 *   about another user).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import type { Configuration } from 'oidc-provider';
import { createTlsCertificate } from '../../../src/platform/crypto/certificates.js';
import { httpsRequest, type HttpResult } from './https.js';
import { parseSetCookie, readForm } from './browser.js';

export interface FederatedNavigation {
  /** Every URL requested, in order. */
  urls: URL[];
  /** The last response (a page), unless the navigation reached the application. */
  last?: HttpResult;
  /** The URL at the application's origin the navigation ended on. */
  arrived?: URL;
  /** The URL the navigation stopped before requesting (`until`). */
  paused?: URL;
}

type Until = (url: URL) => boolean;

const MAX_HOPS = 25;

export class FederationBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** With `keepAlive`, the browser's own connections, reused across its requests as a browser does (`close` ends them). */
  private readonly agent: https.Agent | undefined;

  constructor(
    private readonly ca: string | Buffer,
    private readonly applicationOrigin: string,
    options: { keepAlive?: boolean } = {},
  ) {
    this.agent = options.keepAlive ? new https.Agent({ keepAlive: true, ca }) : undefined;
  }

  /** Closes the browser's kept connections. */
  close(): void {
    this.agent?.destroy();
  }

  cookies(origin: string): ReadonlyMap<string, string> {
    return this.jars.get(origin) ?? new Map();
  }

  navigate(url: string | URL): Promise<FederatedNavigation> {
    return this.follow(new URL(url), 'GET');
  }

  /** Navigates, stopping before a request `until` picks. */
  navigateUntil(url: string | URL, until: Until): Promise<FederatedNavigation> {
    return this.follow(new URL(url), 'GET', undefined, until);
  }

  /** Submits the first form of a page with these fields (over its hidden ones). */
  submit(page: HttpResult, pageUrl: URL, fields: Record<string, string>): Promise<FederatedNavigation> {
    return this.submitUntil(page, pageUrl, fields, () => false);
  }

  submitUntil(page: HttpResult, pageUrl: URL, fields: Record<string, string>, until: Until): Promise<FederatedNavigation> {
    const form = readForm(page.text, pageUrl);
    const fieldsOf = new URLSearchParams({ ...form.hidden, ...fields });
    if (/\bmethod="get"/i.test(/<form\b[^>]*>/i.exec(page.text)?.[0] ?? '')) {
      const target = new URL(form.action);
      for (const [name, value] of fieldsOf) target.searchParams.set(name, value);
      return this.follow(target, 'GET', undefined, until);
    }
    return this.follow(form.action, 'POST', fieldsOf.toString(), until);
  }

  /** Follows redirects (and auto-submitted form_post pages) from one request. */
  private async follow(start: URL, method: string, body?: string, until: Until = () => false): Promise<FederatedNavigation> {
    const urls: URL[] = [];
    let url = start;
    let next = { method, body, crossSite: false };
    for (;;) {
      if (url.origin === this.applicationOrigin) return { urls, arrived: url };
      if (urls.length > 0 && until(url)) return { urls, paused: url };
      if (urls.length === MAX_HOPS) throw new Error(`more than ${MAX_HOPS} hops from ${start.href}`);
      urls.push(url);
      const response = await this.request(url, next.method, next.body, next.crossSite);
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
        url = new URL(location, url);
        next = { method: 'GET', body: undefined, crossSite: false };
        continue;
      }
      // response_mode=form_post: the page posts itself to the relying party, cross-site.
      if (response.status === 200 && /<form[^>]*method="post"/i.test(response.text) && /id_token|code/.test(response.text) && /onload|submit\(\)/i.test(response.text)) {
        const form = readForm(response.text, url);
        if (form.action.origin !== url.origin) {
          url = form.action;
          next = { method: 'POST', body: new URLSearchParams(form.hidden).toString(), crossSite: true };
          continue;
        }
      }
      return { urls, last: response };
    }
  }

  private async request(url: URL, method: string, body: string | undefined, crossSite: boolean): Promise<HttpResult> {
    const jar = this.jars.get(url.origin) ?? new Map<string, string>();
    this.jars.set(url.origin, jar);
    const headers: Record<string, string> = { accept: 'text/html' };
    if (!crossSite && jar.size > 0) headers.cookie = [...jar].map(([n, v]) => `${n}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await httpsRequest(url.href, { ca: this.ca, method, headers, ...(body !== undefined && { body }), ...(this.agent && { agent: this.agent }), timeoutMs: 30_000 });
    const raw = response.headers['set-cookie'];
    for (const header of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
      const cookie = parseSetCookie(header);
      if (!cookie) continue;
      const maxAge = cookie.attributes.get('max-age');
      if (maxAge !== undefined && Number(maxAge) <= 0) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return response;
  }
}

/** How one provider of the stand-in behaves. */
export interface StandInBehaviour {
  /** Claims of the id_token over the ordinary ones (`iss`, `aud`, `nonce`, `exp` …). */
  claims?: (ordinary: jose.JWTPayload) => jose.JWTPayload;
  /** How the id_token is signed: by the key of its JWKS (default), another key with the same kid, unsigned, HS256 with the client secret. */
  signing?: 'jwks' | 'other-key' | 'none' | 'hs256';
  /** The `iss` of the authorization response (default the issuer; null: none). */
  authorizationIss?: string | null;
  /** The same code redeemed more than once. */
  codeReusable?: boolean;
  /** The host of the token endpoint, JWKS and userinfo (default the issuer's). */
  backChannelHost?: string;
  /** A JWKS of more than 1 MiB. */
  hugeJwks?: boolean;
  /** A token endpoint that never answers. */
  silentTokenEndpoint?: boolean;
  /** Claims of the userinfo answer over the ordinary ones (`sub`, `email`, `name`). */
  userinfo?: (ordinary: Record<string, unknown>) => Record<string, unknown>;
  /** The issuer the discovery document at `/t/{name}/{segment}/v2.0/.well-known/…` states (Entra ID's: the tenant's, or the template for `common`). */
  discoveryIssuer?: (segment: string | undefined) => string;
}

export interface StandIn {
  origin: string;
  port: number;
  issuer(name: string): string;
  /** Codes redeemed at each provider's token endpoint, in order. */
  redemptions: string[];
  close(): Promise<void>;
}

interface Grant {
  name: string;
  nonce?: string;
  challenge?: string;
  clientId: string;
}

/** The stand-in, listening on 127.0.0.1 (issuer `https://localhost:{port}/t/{name}`) and 127.0.0.2 (for the refused addresses). */
export async function startStandIn(tls: { cert: Buffer; key: Buffer }, providers: Record<string, StandInBehaviour>, clientSecret: string): Promise<StandIn> {
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const other = await jose.generateKeyPair('RS256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'stand-in-key', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const redeemed = new Set<string>();
  const redemptions: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  let port = 0;
  const base = (host = 'localhost') => `https://${host}:${port}`;
  const issuerOf = (name: string) => `${base()}/t/${name}`;

  async function idToken(name: string, behaviour: StandInBehaviour, grant: Grant): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const ordinary: jose.JWTPayload = { iss: issuerOf(name), aud: grant.clientId, sub: `${name}-user`, iat: now, exp: now + 300, email: `${name}-user@stand-in.example`, email_verified: true, name: `${name} user`, ...(grant.nonce !== undefined && { nonce: grant.nonce }) };
    const claims = behaviour.claims ? behaviour.claims(ordinary) : ordinary;
    switch (behaviour.signing ?? 'jwks') {
      case 'none':
        return new jose.UnsecuredJWT(claims).encode();
      case 'hs256':
        return new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(clientSecret));
      case 'other-key':
        return new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'stand-in-key' }).sign(other.privateKey);
      default:
        return new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'stand-in-key' }).sign(privateKey);
    }
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const handler: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', base());
    const match = /^\/t\/([a-z0-9-]+)(\/.*)$/.exec(url.pathname);
    const name = match?.[1];
    const behaviour = name === undefined ? undefined : providers[name];
    if (!match || !behaviour || name === undefined) return json(res, 404, { error: 'not_found' });
    // Entra ID's discovery is per tenant: /{tenant}/v2.0/.well-known/openid-configuration.
    const tenantSegment = /^\/([^/]+)\/v2\.0(?=\/)/.exec(match[2]!)?.[1];
    const route = match[2]!.replace(/^\/[^/]+\/v2\.0(?=\/)/, '');
    const backChannel = `${base(behaviour.backChannelHost)}/t/${name}`;
    if (route === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: behaviour.discoveryIssuer?.(tenantSegment) ?? issuerOf(name),
        authorization_endpoint: `${issuerOf(name)}/authorize`,
        token_endpoint: `${backChannel}/token`,
        jwks_uri: `${backChannel}/jwks`,
        userinfo_endpoint: `${backChannel}/userinfo`,
        response_types_supported: ['code', 'id_token'],
        subject_types_supported: ['public'],
        // Advertised, so that Gatehouse's own refusal of them is what the tests see.
        id_token_signing_alg_values_supported: ['RS256', 'HS256', 'none'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: behaviour.authorizationIss !== null,
      });
    }
    if (route === '/jwks') {
      if (behaviour.hugeJwks) return json(res, 200, { keys: [jwk], padding: 'x'.repeat(1536 * 1024) });
      return json(res, 200, { keys: [jwk] });
    }
    if (route === '/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      const code = randomBytes(16).toString('base64url');
      grants.set(code, { name, clientId: url.searchParams.get('client_id')!, ...(url.searchParams.has('nonce') && { nonce: url.searchParams.get('nonce')! }), ...(url.searchParams.has('code_challenge') && { challenge: url.searchParams.get('code_challenge')! }) });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      const iss = behaviour.authorizationIss === undefined ? issuerOf(name) : behaviour.authorizationIss;
      if (iss !== null) redirect.searchParams.set('iss', iss);
      res.writeHead(302, { location: redirect.href });
      return res.end();
    }
    if (route === '/token' && req.method === 'POST') {
      if (behaviour.silentTokenEndpoint) {
        hanging.add(res);
        return undefined;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(body);
          const code = form.get('code') ?? '';
          const grant = grants.get(code);
          redemptions.push(code);
          if (!grant || grant.name !== name || (redeemed.has(code) && !behaviour.codeReusable)) return json(res, 400, { error: 'invalid_grant' });
          if (form.get('client_secret') !== clientSecret) return json(res, 401, { error: 'invalid_client' });
          if (grant.challenge !== undefined && createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') !== grant.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' });
          redeemed.add(code);
          return json(res, 200, { access_token: randomBytes(16).toString('base64url'), token_type: 'Bearer', expires_in: 300, id_token: await idToken(name, behaviour, grant) });
        })();
      });
      return undefined;
    }
    if (route === '/userinfo') {
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) return json(res, 401, { error: 'invalid_token' });
      const ordinary = { sub: `${name}-user`, email: `${name}-user@stand-in.example`, name: `${name} userinfo` };
      return json(res, 200, behaviour.userinfo ? behaviour.userinfo(ordinary) : ordinary);
    }
    return json(res, 404, { error: 'not_found' });
  };

  const servers = [https.createServer(tls, handler), https.createServer(tls, handler)];
  await new Promise<void>((resolve) => servers[0]!.listen(0, '127.0.0.1', resolve));
  port = (servers[0]!.address() as AddressInfo).port;
  await new Promise<void>((resolve) => servers[1]!.listen(port, '127.0.0.2', resolve));
  return {
    origin: base(),
    port,
    issuer: issuerOf,
    redemptions,
    async close() {
      for (const res of hanging) res.destroy();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** node-oidc-provider without a consent page: every login has its grant (`loadExistingGrant`). */
export const grantEverything: NonNullable<Configuration['loadExistingGrant']> = async (ctx) => {
  const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
  grant.addOIDCScope('openid email profile');
  await grant.save();
  return grant;
};

/**
 * One certificate for Gatehouse and the upstreams, written to `{dataDir}/tls`
 * (where the server takes its pair), for the server to trust through
 * NODE_EXTRA_CA_CERTS (`certFile`, read by Node at process start).
 */
export async function sharedTls(dataDir: string, hosts: string[]): Promise<{ tls: { cert: Buffer; key: Buffer }; certFile: string }> {
  const tlsDir = path.join(dataDir, 'tls');
  fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
  const material = await createTlsCertificate(hosts);
  fs.writeFileSync(path.join(tlsDir, 'key.pem'), material.keyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(tlsDir, 'cert.pem'), material.certPem);
  return { tls: { cert: Buffer.from(material.certPem), key: Buffer.from(material.keyPem) }, certFile: path.join(tlsDir, 'cert.pem') };
}
