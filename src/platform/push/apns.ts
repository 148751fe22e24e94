/**
 * Notifications through Apple Push Notification service, the provider API
 * Apple's servers speak: HTTP/2 over TLS, authenticated by the provider's
 * client certificate (the tenant's p12, PKCS#12 without a passphrase), a
 * `POST /3/device/{device token}` with `apns-topic` (the app's bundle id),
 * `apns-push-type: alert`, `apns-priority: 10`, `apns-expiration` and the
 * JSON payload; 200 with `apns-id` on success, else a JSON `{reason}`.
 * The base URL is GATEHOUSE_APNS_URL, else Apple's production host, or its
 * sandbox host for a sandbox provider. A payload may carry a live
 * transaction: never logged.
 */
import http2 from 'node:http2';
import tls from 'node:tls';

export const APNS_PRODUCTION_URL = 'https://api.push.apple.com';
export const APNS_SANDBOX_URL = 'https://api.sandbox.push.apple.com';

export class PushDeliveryError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
  ) {
    super(`the push provider answered ${status}${reason === undefined ? '' : ` (${reason})`}`);
    this.name = 'PushDeliveryError';
  }
}

export interface ApnsCredentials {
  /** The PKCS#12 file (DER) holding the client certificate and its key. */
  p12: Buffer;
  /** Extra trusted certificate authorities (PEM), besides the system roots. */
  ca?: Buffer | undefined;
}

export interface ApnsNotification {
  deviceToken: string;
  topic: string;
  payload: unknown;
  /** Unix seconds after which APNs stops trying (0: once). */
  expiration: number;
}

const TIMEOUT_MS = 10_000;
const MAX_ANSWER = 4096;

/** Sends one notification; resolves on 200, else throws PushDeliveryError (status 0: not reached). */
export async function sendApns(baseUrl: string, credentials: ApnsCredentials, notification: ApnsNotification): Promise<void> {
  let session: http2.ClientHttp2Session;
  try {
    session = http2.connect(baseUrl, {
      pfx: credentials.p12,
      passphrase: '',
      ...(credentials.ca && { ca: [...tls.rootCertificates, credentials.ca.toString()] }),
    });
  } catch {
    // The p12 does not open (not PKCS#12, a passphrase, a legacy cipher).
    throw new PushDeliveryError(0, 'BadCertificate');
  }
  try {
    return await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PushDeliveryError(0, 'Timeout')), TIMEOUT_MS);
      session.on('error', () => {
        clearTimeout(timer);
        reject(new PushDeliveryError(0, undefined));
      });
      const body = JSON.stringify(notification.payload);
      const stream = session.request({
        ':method': 'POST',
        ':path': `/3/device/${encodeURIComponent(notification.deviceToken)}`,
        'apns-topic': notification.topic,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'apns-expiration': String(notification.expiration),
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
      let status = 0;
      let answer = '';
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (answer.length < MAX_ANSWER) answer += chunk;
      });
      stream.on('error', () => {
        clearTimeout(timer);
        reject(new PushDeliveryError(status, undefined));
      });
      stream.on('end', () => {
        clearTimeout(timer);
        if (status === 200) return resolve();
        let reason: string | undefined;
        try {
          const parsed = JSON.parse(answer) as { reason?: unknown };
          if (typeof parsed.reason === 'string') reason = parsed.reason.slice(0, 100);
        } catch {
          // Not APNs's JSON error: the status says enough.
        }
        reject(new PushDeliveryError(status, reason));
      });
      stream.end(body);
    });
  } finally {
    session.close();
  }
}
