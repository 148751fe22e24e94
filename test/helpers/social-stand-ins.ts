/**
 * Local HTTPS stand-ins for the social providers Gatehouse cannot reach from
 * a test (Google, Apple, LinkedIn, GitHub, Facebook, Microsoft accounts),
 * each answering as that provider does, under its own path of one server:
 *
 * - OpenID providers (`/google`, `/apple`, `/linkedin`): a discovery document
 *   (Google's advertises PKCE S256), a JWKS, an authorization endpoint that
 *   approves the account the test chose (or answers `access_denied`), a
 *   token endpoint that checks the code, the redirect URI, the client's
 *   credentials and the PKCE verifier, and answers an RS256 id_token with
 *   the nonce. Apple answers by an auto-submitting form post (`code`,
 *   `state`, `id_token`, and on the first authorization only the `user`
 *   JSON with the name), checks that the client secret is an ES256 JWT
 *   signed with the key of the `.p8` the test gave the connection (`iss`
 *   the team id, `sub` the Services ID, `aud` its issuer), and sends
 *   `email_verified` as a string.
 * - OAuth 2.0 providers: GitHub (`/github/login/oauth/…`, the REST API at
 *   `/github/api`: `/user` with a numeric id, `/user/emails` with
 *   `primary`/`verified`), Facebook (`/facebook/dialog/oauth`,
 *   `/facebook/graph/oauth/access_token`, `/facebook/graph/me`), Microsoft
 *   (`/windowslive/oauth2/v2.0/…`, Graph at `/windowslive/graph/v1.0/me`).
 *   Their token endpoints answer JSON only to `Accept: application/json`
 *   (GitHub's form-encoded answer otherwise).
 *
 * `endpoints` is the GATEHOUSE_FEDERATION_ENDPOINTS document that points
 * Gatehouse at them.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

export type StandInProvider = 'google' | 'apple' | 'linkedin' | 'github' | 'facebook' | 'windowslive';

/** The account the next authorization approves. */
export interface StandInAccount {
  id: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  /** GitHub's login. */
  login?: string;
  /** GitHub's `/user/emails`. */
  emails?: { email: string; primary: boolean; verified: boolean; visibility: string | null }[];
}

export interface StandInClient {
  client_id: string;
  /** The client secret; for Apple the public key of its `.p8` (the secret is a JWT signed with it). */
  client_secret?: string;
  apple?: { team_id: string; kid: string; publicKey: JWK };
}

interface Grant {
  provider: StandInProvider;
  client_id: string;
  redirect_uri: string;
  account: StandInAccount;
  nonce?: string;
  challenge?: string;
  used: boolean;
}

export interface SocialStandIns {
  origin: string;
  /** The GATEHOUSE_FEDERATION_ENDPOINTS document for these stand-ins. */
  endpoints: Record<string, Record<string, string>>;
  /** The account each provider's next authorization approves, or 'deny' (the user refuses). */
  next: Partial<Record<StandInProvider, StandInAccount | 'deny'>>;
  /** The registered client of each provider. */
  clients: Partial<Record<StandInProvider, StandInClient>>;
  /** The access tokens issued, in order. */
  issued: string[];
  /** Every authorization request's parameters, and every token request's form, by provider. */
  seen: { authorize: { provider: StandInProvider; params: URLSearchParams }[]; token: { provider: StandInProvider; form: URLSearchParams }[] };
  /** How the next id_token is spoiled (a refusal to test): signed by another key, for another audience, another nonce, another issuer, expired. */
  tamper: { idToken?: 'key' | 'aud' | 'nonce' | 'iss' | 'exp' };
  /** An id_token of a provider as a native application gets it from the provider itself (Google Native Social Login), signed by the key of its JWKS. */
  nativeIdToken(provider: StandInProvider, claims: Record<string, unknown> & { aud: string | string[]; sub: string }): Promise<string>;
  /** An Apple `.p8` key: its PEM for the connection, its public JWK for the stand-in. */
  appleKey(): { pem: string; publicKey: JWK };
  close(): Promise<void>;
}

const OIDC: readonly StandInProvider[] = ['google', 'apple', 'linkedin'];
const random = () => randomBytes(18).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export async function startSocialStandIns(tls: { cert: Buffer; key: Buffer }): Promise<SocialStandIns> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'stand-in-1', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, { provider: StandInProvider; account: StandInAccount }>();
  const firstAuthorizations = new Set<string>();
  const seen: SocialStandIns['seen'] = { authorize: [], token: [] };
  const next: SocialStandIns['next'] = {};
  const clients: SocialStandIns['clients'] = {};
  const tamper: SocialStandIns['tamper'] = {};
  const issued: string[] = [];
  const otherKey = (await generateKeyPair('RS256')).privateKey;
  let origin = '';
  const issuerOf = (provider: StandInProvider) => `${origin}/${provider}`;

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function idToken(provider: StandInProvider, grant: Grant): Promise<string> {
    const a = grant.account;
    const claims: Record<string, unknown> = { sub: a.id, email: a.email, nonce: grant.nonce };
    if (provider === 'apple') {
      // Apple: strings for booleans, no name claims.
      claims.email_verified = String(a.email_verified ?? false);
      claims.is_private_email = 'false';
    } else {
      Object.assign(claims, { email_verified: a.email_verified ?? false, name: a.name, given_name: a.given_name, family_name: a.family_name, picture: a.picture });
    }
    const spoil = tamper.idToken;
    tamper.idToken = undefined;
    if (spoil === 'nonce') claims.nonce = 'another-nonce';
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(spoil === 'iss' ? `${origin}/elsewhere` : issuerOf(provider))
      .setAudience(spoil === 'aud' ? 'another-client' : grant.client_id)
      .setIssuedAt(spoil === 'exp' ? Math.floor(Date.now() / 1000) - 7200 : undefined)
      .setExpirationTime(spoil === 'exp' ? Math.floor(Date.now() / 1000) - 3600 : '5m')
      .sign(spoil === 'key' ? otherKey : privateKey);
  }

  async function clientAuthenticates(provider: StandInProvider, form: URLSearchParams): Promise<boolean> {
    const registered = clients[provider];
    if (!registered || form.get('client_id') !== registered.client_id) return false;
    if (!registered.apple) return form.get('client_secret') === registered.client_secret;
    try {
      const key = await importJWK(registered.apple.publicKey, 'ES256');
      const { payload, protectedHeader } = await jwtVerify(form.get('client_secret') ?? '', key, { algorithms: ['ES256'], issuer: registered.apple.team_id, audience: issuerOf('apple'), subject: registered.client_id });
      return protectedHeader.kid === registered.apple.kid && typeof payload.exp === 'number';
    } catch {
      return false;
    }
  }

  function authorize(provider: StandInProvider, url: URL, res: import('node:http').ServerResponse): void {
    const params = url.searchParams;
    seen.authorize.push({ provider, params });
    const redirect = params.get('redirect_uri') ?? '';
    const state = params.get('state') ?? '';
    const account = next[provider];
    const registered = clients[provider];
    if (!registered || params.get('client_id') !== registered.client_id || !account) return json(res, 400, { error: 'invalid_request' });
    const answer: Record<string, string> = { state };
    if (account === 'deny') {
      Object.assign(answer, { error: 'access_denied', error_description: 'The user denied the request' });
    } else {
      const code = random();
      grants.set(code, { provider, client_id: registered.client_id, redirect_uri: redirect, account, used: false, ...(params.get('nonce') && { nonce: params.get('nonce')! }), ...(params.get('code_challenge') && { challenge: params.get('code_challenge')! }) });
      answer.code = code;
      if (provider === 'apple' && !firstAuthorizations.has(account.id) && account.given_name) {
        firstAuthorizations.add(account.id);
        answer.user = JSON.stringify({ name: { firstName: account.given_name, lastName: account.family_name }, email: account.email });
      }
    }
    if (params.get('response_mode') === 'form_post') {
      const inputs = Object.entries(answer).map(([n, v]) => `<input type="hidden" name="${n}" value="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`).join('');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${redirect}">${inputs}</form></body></html>`);
      return;
    }
    const to = new URL(redirect);
    for (const [n, v] of Object.entries(answer)) to.searchParams.set(n, v);
    res.writeHead(302, { location: to.href });
    res.end();
  }

  async function token(provider: StandInProvider, form: URLSearchParams, accept: string | undefined, res: import('node:http').ServerResponse): Promise<void> {
    seen.token.push({ provider, form });
    const grant = grants.get(form.get('code') ?? '');
    const fail = (error: string) => (provider === 'github' ? json(res, 200, { error }) : json(res, 400, { error }));
    if (!(await clientAuthenticates(provider, form))) return fail('invalid_client');
    if (!grant || grant.used || grant.provider !== provider || grant.redirect_uri !== form.get('redirect_uri')) return fail(provider === 'github' ? 'bad_verification_code' : 'invalid_grant');
    if (grant.challenge !== undefined && s256(form.get('code_verifier') ?? '') !== grant.challenge) return fail('invalid_grant');
    grant.used = true;
    const accessToken = random();
    tokens.set(accessToken, { provider, account: grant.account });
    issued.push(accessToken);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: provider === 'github' ? 'bearer' : 'Bearer', expires_in: 3600 };
    if (OIDC.includes(provider)) body.id_token = await idToken(provider, grant);
    if (provider === 'github') {
      body.scope = 'read:user,user:email';
      if (!accept?.includes('application/json')) {
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
        res.end(new URLSearchParams(body as Record<string, string>).toString());
        return;
      }
    }
    json(res, 200, body);
  }

  function api(provider: StandInProvider, route: string, authorization: string | undefined, res: import('node:http').ServerResponse): void {
    const holder = tokens.get(authorization?.replace(/^Bearer /, '') ?? '');
    if (!holder || holder.provider !== provider) return json(res, 401, { message: 'Bad credentials' });
    const a = holder.account;
    if (provider === 'github' && route === '/user') return json(res, 200, { id: Number(a.id), login: a.login, name: a.name ?? null, avatar_url: a.picture, email: null, node_id: 'MDQ6VXNlcjE=' });
    if (provider === 'github' && route === '/user/emails') return json(res, 200, a.emails ?? []);
    if (provider === 'facebook' && route === '/me') return json(res, 200, { id: a.id, name: a.name, first_name: a.given_name, last_name: a.family_name, email: a.email, picture: { data: { url: a.picture } } });
    if (provider === 'windowslive' && route === '/v1.0/me') return json(res, 200, { id: a.id, displayName: a.name, givenName: a.given_name, surname: a.family_name, mail: a.email ?? null, userPrincipalName: a.email });
    json(res, 404, { error: 'not found' });
  }

  const routes: Record<string, { provider: StandInProvider; kind: 'authorize' | 'token' | 'api'; api?: string }> = {};
  for (const p of OIDC) {
    routes[`/${p}/authorize`] = { provider: p, kind: 'authorize' };
    routes[`/${p}/token`] = { provider: p, kind: 'token' };
  }
  Object.assign(routes, {
    '/github/login/oauth/authorize': { provider: 'github', kind: 'authorize' },
    '/github/login/oauth/access_token': { provider: 'github', kind: 'token' },
    '/github/api/user': { provider: 'github', kind: 'api', api: '/user' },
    '/github/api/user/emails': { provider: 'github', kind: 'api', api: '/user/emails' },
    '/facebook/dialog/oauth': { provider: 'facebook', kind: 'authorize' },
    '/facebook/graph/oauth/access_token': { provider: 'facebook', kind: 'token' },
    '/facebook/graph/me': { provider: 'facebook', kind: 'api', api: '/me' },
    '/windowslive/oauth2/v2.0/authorize': { provider: 'windowslive', kind: 'authorize' },
    '/windowslive/oauth2/v2.0/token': { provider: 'windowslive', kind: 'token' },
    '/windowslive/graph/v1.0/me': { provider: 'windowslive', kind: 'api', api: '/v1.0/me' },
  });

  const server = https.createServer(tls, (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const provider = url.pathname.split('/')[1] as StandInProvider;
        if (OIDC.includes(provider) && url.pathname === `/${provider}/.well-known/openid-configuration`) {
          const issuer = issuerOf(provider);
          return json(res, 200, {
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
            response_modes_supported: provider === 'apple' ? ['query', 'fragment', 'form_post'] : ['query'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            ...(provider === 'google' && { code_challenge_methods_supported: ['plain', 'S256'] }),
          });
        }
        if (OIDC.includes(provider) && url.pathname === `/${provider}/jwks`) return json(res, 200, { keys: [jwk] });
        const route = routes[url.pathname];
        if (!route) return json(res, 404, { error: 'not found' });
        if (route.kind === 'authorize') return authorize(route.provider, url, res);
        if (route.kind === 'token') return token(route.provider, new URLSearchParams(Buffer.concat(chunks).toString()), req.headers.accept, res);
        return api(route.provider, route.api!, req.headers.authorization, res);
      })().catch((error: unknown) => json(res, 500, { error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    endpoints: {
      'google-oauth2': { issuer: issuerOf('google') },
      apple: { issuer: issuerOf('apple') },
      linkedin: { issuer: issuerOf('linkedin') },
      github: { authorization_endpoint: `${origin}/github/login/oauth/authorize`, token_endpoint: `${origin}/github/login/oauth/access_token`, api_base: `${origin}/github/api` },
      facebook: { authorization_endpoint: `${origin}/facebook/dialog/oauth`, token_endpoint: `${origin}/facebook/graph/oauth/access_token`, api_base: `${origin}/facebook/graph` },
      windowslive: { authorization_endpoint: `${origin}/windowslive/oauth2/v2.0/authorize`, token_endpoint: `${origin}/windowslive/oauth2/v2.0/token`, api_base: `${origin}/windowslive/graph` },
    },
    next,
    clients,
    seen,
    tamper,
    issued,
    nativeIdToken: (provider, claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid }).setIssuer(issuerOf(provider)).setIssuedAt().setExpirationTime('5m').sign(privateKey),
    appleKey: () => {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const publicKey = pair.publicKey.export({ format: 'jwk' }) as JWK;
      return { pem, publicKey };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
