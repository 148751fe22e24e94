/**
 * Notifications through Firebase Cloud Messaging, the two protocols the
 * service's push providers name:
 *
 * - `fcmv1`, the HTTP v1 API: the tenant's service account (its JSON key)
 *   signs a JWT assertion (RS256, `scope` firebase.messaging) that Google's
 *   token endpoint exchanges for an access token (RFC 7523's jwt-bearer
 *   grant), kept until a minute before it expires; then
 *   `POST /v1/projects/{project_id}/messages:send` with
 *   `{message: {token, notification, data}}` and that bearer token.
 * - `fcm`, the legacy HTTP API: `POST /fcm/send` with `Authorization: key=`
 *   the server key and `{to, notification, data}`.
 *
 * The base URLs are the operator's (GATEHOUSE_FCM_URL, GATEHOUSE_FCM_TOKEN_URL);
 * the service account's own `token_uri` is not followed, so a tenant's key
 * cannot send the server anywhere else. Answers are read up to 4 KiB; a
 * payload may carry a live transaction: never logged.
 */
import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { SignJWT } from 'jose';
import { PushDeliveryError } from './apns.js';

export const FCM_URL = 'https://fcm.googleapis.com';
export const FCM_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const TIMEOUT_MS = 10_000;
const MAX_ANSWER = 4096;

/** The members of a Google service account key Gatehouse reads. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
}

/** The service account of an `fcmv1` provider's `server_credentials`; throws an Error saying what is wrong. */
export function parseServiceAccount(json: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('server_credentials must be the JSON key of a Google service account');
  }
  const account = parsed as Partial<Record<keyof ServiceAccount, unknown>>;
  for (const member of ['project_id', 'client_email', 'private_key'] as const) {
    if (typeof account[member] !== 'string' || account[member] === '') throw new Error(`server_credentials has no ${member}`);
  }
  if (!/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/.test(account.project_id as string)) throw new Error('server_credentials has an invalid project_id');
  let key: KeyObject;
  try {
    key = createPrivateKey(account.private_key as string);
  } catch {
    throw new Error('server_credentials has a private_key that is not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error('server_credentials has a private_key that is not an RSA key');
  return { project_id: account.project_id as string, client_email: account.client_email as string, private_key: account.private_key as string };
}

export interface FcmEndpoints {
  baseUrl: string;
  tokenUrl: string;
  /** Extra trusted certificate authorities (PEM), besides the system roots. */
  ca?: Buffer | undefined;
}

export interface FcmNotification {
  deviceToken: string;
  title: string;
  body: string;
  /** String values only, as FCM's `data` requires. */
  data: Record<string, string>;
  /** Seconds FCM keeps trying. */
  ttlSeconds: number;
}

interface Answer {
  status: number;
  body: string;
}

function post(url: string, headers: Record<string, string>, body: string, ca: Buffer | undefined): Promise<Answer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: TIMEOUT_MS,
        ...(target.protocol === 'https:' && ca && { ca: [...tls.rootCertificates, ca.toString()] }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < MAX_ANSWER) text += chunk.slice(0, MAX_ANSWER - text.length);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** An error reason from an answer's JSON (`error.status`, `error`), if it has one. */
function reasonOf(answer: Answer): string | undefined {
  try {
    const parsed = JSON.parse(answer.body) as { error?: string | { status?: string } };
    return typeof parsed.error === 'string' ? parsed.error : parsed.error?.status;
  } catch {
    return undefined;
  }
}

const tokens = new Map<string, { token: string; until: number }>();

/** An access token for the service account, from the cache or Google's token endpoint. */
async function accessToken(account: ServiceAccount, endpoints: FcmEndpoints, now: number): Promise<string> {
  const cacheKey = createHash('sha256').update(`${endpoints.tokenUrl}\n${account.client_email}\n${account.private_key}`).digest('base64url');
  const cached = tokens.get(cacheKey);
  if (cached && cached.until > now) return cached.token;
  const iat = Math.floor(now / 1000);
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(account.client_email)
    .setAudience(endpoints.tokenUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(createPrivateKey(account.private_key));
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  const answer = await post(endpoints.tokenUrl, { 'content-type': 'application/x-www-form-urlencoded' }, form, endpoints.ca).catch(() => {
    throw new PushDeliveryError(0, 'TokenEndpointUnreachable');
  });
  if (answer.status !== 200) throw new PushDeliveryError(answer.status, reasonOf(answer) ?? 'TokenRefused');
  const parsed = JSON.parse(answer.body) as { access_token?: unknown; expires_in?: unknown };
  if (typeof parsed.access_token !== 'string') throw new PushDeliveryError(answer.status, 'TokenRefused');
  const lifetime = typeof parsed.expires_in === 'number' ? parsed.expires_in : 3600;
  if (tokens.size > 1000) tokens.clear();
  tokens.set(cacheKey, { token: parsed.access_token, until: now + Math.max(0, lifetime - 60) * 1000 });
  return parsed.access_token;
}

/** Sends one notification through FCM's HTTP v1 API; resolves on 200, else throws PushDeliveryError. */
export async function sendFcmV1(endpoints: FcmEndpoints, account: ServiceAccount, notification: FcmNotification, now: number = Date.now()): Promise<void> {
  const bearer = await accessToken(account, endpoints, now);
  const message = {
    message: {
      token: notification.deviceToken,
      notification: { title: notification.title, body: notification.body },
      data: notification.data,
      android: { priority: 'high', ttl: `${notification.ttlSeconds}s` },
    },
  };
  const url = `${endpoints.baseUrl}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
  const answer = await post(url, { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, JSON.stringify(message), endpoints.ca).catch(() => {
    throw new PushDeliveryError(0, 'Unreachable');
  });
  if (answer.status !== 200) throw new PushDeliveryError(answer.status, reasonOf(answer));
}

/** Sends one notification through FCM's legacy HTTP API with the server key; resolves when FCM accepted it. */
export async function sendFcmLegacy(endpoints: FcmEndpoints, serverKey: string, notification: FcmNotification): Promise<void> {
  const message = {
    to: notification.deviceToken,
    priority: 'high',
    time_to_live: notification.ttlSeconds,
    notification: { title: notification.title, body: notification.body },
    data: notification.data,
  };
  const answer = await post(`${endpoints.baseUrl}/fcm/send`, { 'content-type': 'application/json', authorization: `key=${serverKey}` }, JSON.stringify(message), endpoints.ca).catch(() => {
    throw new PushDeliveryError(0, 'Unreachable');
  });
  if (answer.status !== 200) throw new PushDeliveryError(answer.status, reasonOf(answer));
  // The legacy API answers 200 with per-device results: `failure` counts the devices it refused.
  const parsed = JSON.parse(answer.body) as { failure?: number; results?: { error?: string }[] };
  if (parsed.failure) throw new PushDeliveryError(answer.status, parsed.results?.[0]?.error);
}
