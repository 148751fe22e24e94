/**
 * Text messages through Twilio's REST API, the protocol its client
 * libraries speak: `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`
 * with HTTP Basic (account SID and auth token) and a form body `To`, `Body`
 * and `From` (or `MessagingServiceSid`); 201 with the message resource on
 * success, an error resource (`code`, `message`) otherwise. The base URL is
 * the GATEHOUSE_TWILIO_URL setting (Twilio's host by default; a local
 * stand-in in tests). A message carries a live code: never logged.
 */
export interface TwilioAccount {
  sid: string;
  authToken: string;
  from?: string;
  messagingServiceSid?: string;
}

export class SmsDeliveryError extends Error {
  constructor(
    readonly status: number,
    readonly providerCode: number | undefined,
  ) {
    super(`the SMS provider answered ${status}${providerCode === undefined ? '' : ` (code ${providerCode})`}`);
    this.name = 'SmsDeliveryError';
  }
}

const TIMEOUT_MS = 10_000;

export async function sendTwilioSms(baseUrl: string, account: TwilioAccount, to: string, body: string): Promise<void> {
  const form = new URLSearchParams({ To: to, Body: body });
  if (account.messagingServiceSid) form.set('MessagingServiceSid', account.messagingServiceSid);
  else if (account.from) form.set('From', account.from);
  const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(account.sid)}/Messages.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account.sid}:${account.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new SmsDeliveryError(0, undefined);
  }
  if (response.status === 201 || response.status === 200) {
    await response.body?.cancel();
    return;
  }
  let code: number | undefined;
  try {
    const error = (await response.json()) as { code?: unknown };
    if (typeof error.code === 'number') code = error.code;
  } catch {
    // Not Twilio's JSON error resource: the status says enough.
  }
  throw new SmsDeliveryError(response.status, code);
}
