/**
 * A local stand-in for Firebase Cloud Messaging and Google's OAuth 2.0 token
 * endpoint (Google cannot be reached from the tests), plain HTTP on the
 * loopback:
 *
 * - `POST /token`: RFC 7523's jwt-bearer grant; the assertion must be an
 *   RS256 JWT signed by the service account's key (its public half given at
 *   start), issued by its `client_email`, for this endpoint's URL, with the
 *   firebase.messaging scope; answers an access token.
 * - `POST /v1/projects/{project}/messages:send` with that bearer token: the
 *   HTTP v1 API; keeps the message.
 * - `POST /fcm/send` with `Authorization: key={server key}`: the legacy API;
 *   keeps the message and answers its per-device results.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, type CryptoKey, type KeyObject } from 'jose';

export interface FcmMessageSeen {
  api: 'v1' | 'legacy';
  project?: string;
  body: Record<string, unknown>;
}

export interface FcmStandIn {
  url: string;
  tokenUrl: string;
  messages: FcmMessageSeen[];
  tokensIssued: number;
  close(): Promise<void>;
}

export async function startFcmStandIn(account: { client_email: string; project_id: string; publicKey: CryptoKey | KeyObject }, serverKey: string): Promise<FcmStandIn> {
  const accessTokens = new Set<string>();
  const standIn: FcmStandIn = { url: '', tokenUrl: '', messages: [], tokensIssued: 0, close: () => new Promise((resolve) => server.close(() => resolve())) };
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString();
        if (req.method === 'POST' && req.url === '/token') {
          const form = new URLSearchParams(text);
          if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return answer(res, 400, { error: 'unsupported_grant_type' });
          try {
            const { payload } = await jwtVerify(form.get('assertion') ?? '', account.publicKey, { algorithms: ['RS256'], issuer: account.client_email, audience: standIn.tokenUrl });
            if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') return answer(res, 400, { error: 'invalid_scope' });
          } catch {
            return answer(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          }
          const token = `ya29.${randomBytes(16).toString('hex')}`;
          accessTokens.add(token);
          standIn.tokensIssued += 1;
          return answer(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
        }
        const v1 = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
        if (req.method === 'POST' && v1) {
          const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          if (!bearer || !accessTokens.has(bearer)) return answer(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
          if (v1[1] !== account.project_id) return answer(res, 403, { error: { code: 403, status: 'PERMISSION_DENIED' } });
          standIn.messages.push({ api: 'v1', project: v1[1], body: JSON.parse(text) as Record<string, unknown> });
          return answer(res, 200, { name: `projects/${v1[1]}/messages/${randomBytes(8).toString('hex')}` });
        }
        if (req.method === 'POST' && req.url === '/fcm/send') {
          if (req.headers.authorization !== `key=${serverKey}`) return answer(res, 401, { error: 'Unauthorized' });
          standIn.messages.push({ api: 'legacy', body: JSON.parse(text) as Record<string, unknown> });
          return answer(res, 200, { multicast_id: 1, success: 1, failure: 0, results: [{ message_id: randomBytes(8).toString('hex') }] });
        }
        return answer(res, 404, { error: 'not found' });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.tokenUrl = `${standIn.url}/token`;
  return standIn;
}
