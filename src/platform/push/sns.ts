/**
 * Notifications through Amazon SNS mobile push, with the AWS SDK
 * (@aws-sdk/client-sns, SNS's query protocol signed with SigV4): the device's
 * token is registered on the tenant's platform application
 * (`CreatePlatformEndpoint`, idempotent for the same token), then the
 * message is published to that endpoint (`Publish` with
 * `MessageStructure: json`, one member per platform). The endpoint is
 * GATEHOUSE_SNS_ENDPOINT, else the region's AWS endpoint. The message may
 * carry a live transaction: never logged.
 */
import https from 'node:https';
import tls from 'node:tls';
import { PushDeliveryError } from './apns.js';

export interface SnsAccount {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The endpoint to use instead of the region's AWS endpoint. */
  endpoint?: string | undefined;
  /** Extra trusted certificate authorities (PEM), besides the system roots. */
  ca?: Buffer | undefined;
}

export interface SnsNotification {
  platformApplicationArn: string;
  deviceToken: string;
  /** Members of the JSON message: `default` and one per platform (`APNS`, `APNS_SANDBOX`, `GCM`), each a string. */
  message: Record<string, string>;
}

const TIMEOUT_MS = 10_000;

export async function sendSns(account: SnsAccount, notification: SnsNotification): Promise<void> {
  // Loaded on the first notification: the SDK is dozens of modules a server without SNS never needs.
  const { CreatePlatformEndpointCommand, PublishCommand, SNSClient } = await import('@aws-sdk/client-sns');
  const client = new SNSClient({
    region: account.region,
    credentials: { accessKeyId: account.accessKeyId, secretAccessKey: account.secretAccessKey },
    ...(account.endpoint !== undefined && { endpoint: account.endpoint }),
    maxAttempts: 1,
    // The SDK's Node handler options (it builds its handler from them).
    requestHandler: {
      requestTimeout: TIMEOUT_MS,
      connectionTimeout: TIMEOUT_MS,
      ...(account.ca && { httpsAgent: new https.Agent({ ca: [...tls.rootCertificates, account.ca.toString()] }) }),
    },
  });
  try {
    const { EndpointArn } = await client.send(new CreatePlatformEndpointCommand({ PlatformApplicationArn: notification.platformApplicationArn, Token: notification.deviceToken }));
    if (!EndpointArn) throw new PushDeliveryError(502, 'NoEndpointArn');
    await client.send(new PublishCommand({ TargetArn: EndpointArn, MessageStructure: 'json', Message: JSON.stringify(notification.message) }));
  } catch (error) {
    if (error instanceof PushDeliveryError) throw error;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
    const name = (error as { name?: unknown }).name;
    throw new PushDeliveryError(status, typeof name === 'string' ? name.slice(0, 100) : undefined);
  } finally {
    client.destroy();
  }
}
