/**
 * A push-notification device (the Guardian app's side of the protocol) for
 * the tests: enrolment by the QR code's transaction with a new key pair and
 * push token, and the JWTs it signs about a transaction (reading it,
 * answering it). The transport is the test's own (app.inject in process,
 * HTTPS against the built server).
 */
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface PushDevice {
  id: string;
  token: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  alg: 'ES256' | 'RS256';
}

/** POSTs a JSON body with these headers; the status and body text. */
export type DevicePost = (path: string, body: unknown, headers: Record<string, string>) => Promise<{ status: number; text: string }>;

/** The device enrols through the barcode's transaction (`baseUrl`: the server's /guardian) with a new key pair, as an APNs (or GCM: Android) device. */
export async function enrolPushDevice(barcodeUri: string, baseUrl: string, post: DevicePost, alg: 'ES256' | 'RS256' = 'ES256', service: 'APNS' | 'GCM' = 'APNS'): Promise<PushDevice> {
  const uri = new URL(barcodeUri);
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.searchParams.get('base_url'), baseUrl);
  const { publicKey, privateKey } = await generateKeyPair(alg);
  const publicJwk = await exportJWK(publicKey);
  const token = `device-${Math.random().toString(16).slice(2)}`;
  const res = await post('/guardian/api/enroll', { identifier: 'phone-1', name: 'My phone', push_credentials: { service, token }, public_key: publicJwk }, { authorization: `Ticket id="${uri.searchParams.get('enrollment_tx_id')}"` });
  assert.equal(res.status, 201, res.text);
  const body = JSON.parse(res.text) as { id: string; url: string };
  assert.equal(body.url, baseUrl);
  return { id: body.id, token, privateKey, publicJwk, alg };
}

/** What the device sends about transaction `txn`: a JWT for `audience`, issued at `nowMs`, signed by `key` (its own unless given). */
export function signDeviceJwt(device: PushDevice, txn: string, audience: string, nowMs: number, claims: Record<string, unknown> = {}, key: CryptoKey = device.privateKey): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT(claims).setProtectedHeader({ alg: device.alg }).setIssuer(device.id).setSubject(txn).setAudience(audience).setIssuedAt(now).setExpirationTime(now + 120).sign(key);
}

/** The claims of the device's answer to a push. */
export const pushAnswer = (accepted: boolean) => ({ auth0_guardian_method: 'push', auth0_guardian_accepted: accepted });
