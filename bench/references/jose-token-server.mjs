// The signing limit (reference of `npm run bench`): the least a client_credentials token
// endpoint can do. node:http, POST /oauth/token with the JSON body Gatehouse gets
// ({grant_type, client_id, client_secret, audience}), a constant-time secret check, and an
// RS256 JWT with the claims and header Gatehouse issues for an API with 3 scopes, signed by
// jose's SignJWT (WebCrypto, so on libuv's threadpool as in Gatehouse) with a 2048-bit key.
// GET /.well-known/jwks.json serves the public key, so the bench can verify the tokens.
//
// Settings (environment, set by the bench): BENCH_HOST, BENCH_PORT, BENCH_CLIENT_ID,
// BENCH_CLIENT_SECRET, BENCH_AUDIENCE, BENCH_SCOPE (space-separated), BENCH_ISSUER.
// Plain JavaScript so that no loader adds to its start-up time or memory.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { setting } from './settings.mjs';

const CLIENT_ID = setting('BENCH_CLIENT_ID');
const AUDIENCE = setting('BENCH_AUDIENCE');
const SCOPE = setting('BENCH_SCOPE');
const ISSUER = setting('BENCH_ISSUER');
const SECRET_DIGEST = createHash('sha256').update(setting('BENCH_CLIENT_SECRET')).digest();
const LIFETIME = 86_400;
const KID = 'bench-jose-server';

const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
const jwks = Buffer.from(JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] }));

/** Equal-length digests, so the comparison takes the same time whatever the secret sent. */
const secretMatches = (secret) => typeof secret === 'string' && timingSafeEqual(createHash('sha256').update(secret).digest(), SECRET_DIGEST);

function send(res, status, body, extra = {}) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length, ...extra });
  res.end(bytes);
}

async function token(body) {
  let params;
  try {
    params = JSON.parse(body);
  } catch {
    return [400, { error: 'invalid_request', error_description: 'the body is not JSON' }];
  }
  if (params.grant_type !== 'client_credentials') return [400, { error: 'unsupported_grant_type' }];
  if (params.client_id !== CLIENT_ID || !secretMatches(params.client_secret)) return [401, { error: 'access_denied', error_description: 'Unauthorized' }];
  if (params.audience !== AUDIENCE) return [403, { error: 'access_denied', error_description: 'Service not enabled within domain' }];
  const iat = Math.floor(Date.now() / 1000);
  // Claims in Gatehouse's order (src/tokens/access-token.ts): iss, sub, aud, iat, exp, scope, gty, azp.
  const accessToken = await new SignJWT({
    iss: ISSUER,
    sub: `${CLIENT_ID}@clients`,
    aud: AUDIENCE,
    iat,
    exp: iat + LIFETIME,
    scope: SCOPE,
    gty: 'client-credentials',
    azp: CLIENT_ID,
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: KID })
    .sign(privateKey);
  return [200, { access_token: accessToken, scope: SCOPE, expires_in: LIFETIME, token_type: 'Bearer' }];
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/.well-known/jwks.json') {
    req.resume();
    return send(res, 200, jwks);
  }
  if (req.method !== 'POST' || req.url !== '/oauth/token') {
    req.resume();
    return send(res, 404, { error: 'not_found' });
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    token(Buffer.concat(chunks).toString('utf8')).then(
      ([status, body]) => send(res, status, body, { 'cache-control': 'no-store', pragma: 'no-cache' }),
      (error) => send(res, 500, { error: 'server_error', error_description: String(error) }),
    );
  });
});
server.listen(Number(setting('BENCH_PORT')), setting('BENCH_HOST'));
process.on('SIGTERM', () => process.exit(0));
