/**
 * The application's side of an authorization request, as openid-client
 * builds it: PKCE S256, state and nonce, optionally a `connection` to go
 * straight to; what it keeps to redeem the code later.
 */
import * as client from 'openid-client';

export interface PendingAuthorization {
  url: URL;
  pkceCodeVerifier: string;
  expectedState: string;
  expectedNonce: string;
}

export async function appAuthorization(app: client.Configuration, redirectUri: string, connection?: string): Promise<PendingAuthorization> {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(app, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
    ...(connection !== undefined && { connection }),
  });
  return { url, pkceCodeVerifier, expectedState, expectedNonce };
}
