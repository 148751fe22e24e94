/**
 * An HTTPS endpoint standing in for a tenant's destination (a log stream's
 * sink, an event stream's webhook): answers the first `failFirst` requests
 * with 503, then 200; records every request it accepted. While `hold` is
 * set, requests are read and left unanswered (counted in `held`): a
 * destination that is slow, for killing a sender mid-delivery.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export class HttpsReceiver {
  readonly accepted: Received[] = [];
  refused = 0;
  hold = false;
  held = 0;
  url = '';
  #server: https.Server | undefined;
  constructor(
    private readonly tls: { cert: string; key: string },
    public failFirst = 0,
    private readonly path = '/',
  ) {}

  async up(): Promise<void> {
    this.#server = https.createServer(this.tls, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (this.hold) {
          this.held += 1;
          return;
        }
        if (this.failFirst > 0) {
          this.failFirst -= 1;
          this.refused += 1;
          res.writeHead(503).end();
          return;
        }
        this.accepted.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.#server!.address() as AddressInfo).port}${this.path}`;
  }

  async down(): Promise<void> {
    // Kept-alive connections of the posters would hold `close` open.
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** Runs `fn` with a receiver up, taking it down afterwards. */
export async function withReceiver<T>(tls: { cert: string; key: string }, failFirst: number, fn: (receiver: HttpsReceiver) => Promise<T>): Promise<T> {
  const receiver = new HttpsReceiver(tls, failFirst);
  await receiver.up();
  try {
    return await fn(receiver);
  } finally {
    await receiver.down();
  }
}
