// node-oidc-provider (reference of `npm run bench`), configured for the same
// client_credentials tokens as the bench's typical API in Gatehouse: one client
// (client_secret_post, grant client_credentials) and the resourceIndicators feature, so
// that client_credentials issues an RS256 JWT access token (2048-bit key) for the API
// with its 3 scopes. Everything else is left at its minimum: no interactions, no other
// grants. Its request is its own native form: POST /token, form-encoded, with `resource`
// and `scope`. Its JWKS is at GET /jwks.
//
// Settings (environment, set by the bench): BENCH_HOST, BENCH_PORT, BENCH_CLIENT_ID,
// BENCH_CLIENT_SECRET, BENCH_AUDIENCE, BENCH_SCOPE (space-separated), BENCH_ISSUER.
// Plain JavaScript so that no loader adds to its start-up time or memory.
import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { setting } from './settings.mjs';

const AUDIENCE = setting('BENCH_AUDIENCE');
const SCOPE = setting('BENCH_SCOPE');

const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'bench-oidc-provider', alg: 'RS256', use: 'sig' };

const provider = new Provider(setting('BENCH_ISSUER'), {
  clients: [
    {
      client_id: setting('BENCH_CLIENT_ID'),
      client_secret: setting('BENCH_CLIENT_SECRET'),
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    },
  ],
  jwks: { keys: [jwk] },
  cookies: { keys: ['bench-cookie-key-not-used'] },
  ttl: { ClientCredentials: 86_400 },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => AUDIENCE,
      useGrantedResource: () => true,
      getResourceServerInfo(_ctx, resourceIndicator) {
        if (resourceIndicator !== AUDIENCE) throw new errors.InvalidTarget();
        return { scope: SCOPE, audience: AUDIENCE, accessTokenTTL: 86_400, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
      },
    },
  },
});

http.createServer(provider.callback()).listen(Number(setting('BENCH_PORT')), setting('BENCH_HOST'));
process.on('SIGTERM', () => process.exit(0));
