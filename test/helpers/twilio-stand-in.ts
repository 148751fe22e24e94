/**
 * A local stand-in for Twilio's REST API (Twilio cannot be reached from the
 * tests): `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP
 * Basic (account SID and auth token) and a form body, as Twilio's clients
 * send it. A right request gets 201 and a message resource, and is kept for
 * the test to read; a wrong account or token gets Twilio's 401 error
 * resource (code 20003), a missing `To`/`Body` or sender its 400 (21604,
 * 21602, 21603). Point GATEHOUSE_TWILIO_URL at `url`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface SentSms {
  accountSid: string;
  to: string;
  body: string;
  from?: string;
  messagingServiceSid?: string;
}

export interface TwilioStandIn {
  url: string;
  messages: SentSms[];
  close(): Promise<void>;
}

const PATH = /^\/2010-04-01\/Accounts\/([A-Za-z0-9]+)\/Messages\.json$/;

export async function startTwilioStandIn(accounts: Record<string, string>): Promise<TwilioStandIn> {
  const messages: SentSms[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const match = PATH.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const sid = match[1]!;
      const [user, token] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
      if (user !== sid || accounts[sid] === undefined || accounts[sid] !== token) return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return answer(400, { code: 20001, message: 'Bad content type', status: 400 });
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const to = form.get('To');
      const body = form.get('Body');
      const from = form.get('From') ?? undefined;
      const messagingServiceSid = form.get('MessagingServiceSid') ?? undefined;
      if (!to) return answer(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      if (!body) return answer(400, { code: 21602, message: 'Message body is required.', status: 400 });
      if (!from && !messagingServiceSid) return answer(400, { code: 21603, message: "A 'From' phone number is required.", status: 400 });
      messages.push({ accountSid: sid, to, body, ...(from && { from }), ...(messagingServiceSid && { messagingServiceSid }) });
      answer(201, { sid: `SM${randomBytes(16).toString('hex')}`, account_sid: sid, to, from: from ?? null, messaging_service_sid: messagingServiceSid ?? null, body, status: 'queued' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
