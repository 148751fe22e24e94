/**
 * A local HTTPS stand-in for Duo's Universal Prompt (Duo cannot be reached
 * from the tests), for one Duo application (integration key, secret key):
 *
 * - `GET /oauth/v1/authorize?response_type=code&client_id&request&redirect_uri&scope`:
 *   the request JWT must be HS512 under the secret key, issued by the
 *   integration key for this stand-in's base URL, with the redirect URI,
 *   `state`, `nonce` and `duo_uname`; answers 302 to the redirect URI with
 *   `state` and `duo_code` (or `error=access_denied` when `refuse` is set);
 * - `POST /oauth/v1/token`: the code (once, with its redirect URI) and a
 *   client assertion (HS512 under the secret key, issued and subject the
 *   integration key, for this endpoint's URL); answers an `id_token` (HS512,
 *   issued by the token endpoint for the integration key, the user name and
 *   nonce of the authorization, `auth_result` of `result`), altered by
 *   `idToken` when a test sets it.
 */
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { jwtVerify, SignJWT } from 'jose';

export interface DuoStandIn {
  url: string;
  /** The request JWTs' claims, as the authorize endpoint saw them. */
  authorizations: Record<string, unknown>[];
  /** Token requests answered 200. */
  tokensIssued: number;
  /** The next authorizations are refused at the prompt (the user denied). */
  refuse: boolean;
  /** What Duo says of the login in the id_token. */
  result: 'allow' | 'deny';
  /** Changes to the next id_tokens' claims, or another key to sign them with. */
  idToken: { claims?: Record<string, unknown>; key?: string };
  close(): Promise<void>;
}

export async function startDuoStandIn(tls: { cert: string; key: string }, app: { ikey: string; skey: string }): Promise<DuoStandIn> {
  const secret = (key = app.skey) => new TextEncoder().encode(key);
  const codes = new Map<string, { username: string; nonce: string; redirectUri: string }>();
  const standIn: DuoStandIn = {
    url: '',
    authorizations: [],
    tokensIssued: 0,
    refuse: false,
    result: 'allow',
    idToken: {},
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = https.createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', standIn.url);
        if (req.method === 'GET' && url.pathname === '/oauth/v1/authorize') {
          if (url.searchParams.get('client_id') !== app.ikey || url.searchParams.get('response_type') !== 'code') return answer(res, 400, { error: 'invalid_request' });
          let claims: Record<string, unknown>;
          try {
            ({ payload: claims } = await jwtVerify(url.searchParams.get('request') ?? '', secret(), { algorithms: ['HS512'], issuer: app.ikey, audience: standIn.url }));
          } catch {
            return answer(res, 400, { error: 'invalid_request', error_description: 'Invalid request JWT' });
          }
          standIn.authorizations.push(claims);
          const redirectUri = claims.redirect_uri as string;
          if (redirectUri !== url.searchParams.get('redirect_uri') || claims.client_id !== app.ikey || claims.use_duo_code_attribute !== true) return answer(res, 400, { error: 'invalid_request' });
          const back = new URL(redirectUri);
          back.searchParams.set('state', claims.state as string);
          if (standIn.refuse) {
            back.searchParams.set('error', 'access_denied');
          } else {
            const code = randomBytes(16).toString('hex');
            codes.set(code, { username: claims.duo_uname as string, nonce: claims.nonce as string, redirectUri });
            back.searchParams.set('duo_code', code);
          }
          res.writeHead(302, { location: back.toString() });
          return res.end();
        }
        if (req.method === 'POST' && url.pathname === '/oauth/v1/token') {
          const form = new URLSearchParams(Buffer.concat(chunks).toString());
          const tokenUrl = `${standIn.url}/oauth/v1/token`;
          if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return answer(res, 400, { error: 'invalid_client' });
          try {
            await jwtVerify(form.get('client_assertion') ?? '', secret(), { algorithms: ['HS512'], issuer: app.ikey, subject: app.ikey, audience: tokenUrl, requiredClaims: ['jti', 'exp'] });
          } catch {
            return answer(res, 400, { error: 'invalid_client' });
          }
          const code = form.get('code') ?? '';
          const login = codes.get(code);
          codes.delete(code);
          if (form.get('grant_type') !== 'authorization_code' || !login || login.redirectUri !== form.get('redirect_uri')) return answer(res, 400, { error: 'invalid_grant' });
          const now = Math.floor(Date.now() / 1000);
          const idToken = await new SignJWT({
            preferred_username: login.username,
            nonce: login.nonce,
            auth_result: { result: standIn.result, status: standIn.result, status_msg: standIn.result === 'allow' ? 'Login Successful' : 'Login denied' },
            ...standIn.idToken.claims,
          })
            .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
            .setIssuer(tokenUrl)
            .setAudience(app.ikey)
            .setSubject(login.username)
            .setIssuedAt(now)
            .setExpirationTime(now + 300)
            .sign(secret(standIn.idToken.key));
          standIn.tokensIssued += 1;
          return answer(res, 200, { id_token: idToken, access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 3600 });
        }
        return answer(res, 404, { error: 'not_found' });
      })().catch(() => answer(res, 500, { error: 'server_error' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
