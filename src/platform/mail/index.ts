/**
 * Which mail transport a process uses, chosen from the environment:
 *
 * - `GATEHOUSE_SMTP_URL` (smtp:// or smtps:// URL): deliver through that server,
 *   from `GATEHOUSE_MAIL_FROM` (default `no-reply@<tenant domain>`, without the port);
 * - unset: the local outbox, `<data dir>/outbox.jsonl`.
 *
 * Both settings come from the configuration (src/platform/config.ts); the
 * composition root builds one Mailer per process.
 */
import type { Config } from '../config.js';
import { OutboxTransport, type OutboxEntry } from './outbox.js';
import { SmtpTransport } from './smtp.js';
import type { MailMessage, MailTransport } from './transport.js';

export type { MailMessage, MailTransport } from './transport.js';
export type { OutboxEntry } from './outbox.js';

/** GATEHOUSE_SMTP_URL and GATEHOUSE_MAIL_FROM, validated at start-up by src/platform/config.ts. */
export type MailSettings = Config['mail'];

/** The sender of a tenant's mail. */
export function senderFor(settings: MailSettings, tenantDomain: string): string {
  return settings.from ?? `no-reply@${tenantDomain.replace(/:\d+$/, '')}`;
}

/**
 * Sends through SMTP or the outbox; for SMTP one nodemailer transport per
 * sender address (tenants differ in their default sender).
 */
export class Mailer {
  readonly outbox: OutboxTransport | undefined;
  readonly #smtp = new Map<string, SmtpTransport>();

  constructor(
    private readonly settings: MailSettings,
    dataDir: string,
    now: () => number,
  ) {
    this.outbox = settings.smtpUrl === undefined ? new OutboxTransport(dataDir, now) : undefined;
  }

  /** The transport for mail of the tenant at `tenantDomain`. */
  transportFor(tenantDomain: string): MailTransport {
    if (this.outbox) return this.outbox;
    const from = senderFor(this.settings, tenantDomain);
    let transport = this.#smtp.get(from);
    if (!transport) {
      transport = new SmtpTransport(this.settings.smtpUrl!, from);
      this.#smtp.set(from, transport);
    }
    return transport;
  }

  send(tenantDomain: string, message: MailMessage): Promise<void> {
    return this.transportFor(tenantDomain).send(message);
  }

  close(): void {
    for (const transport of this.#smtp.values()) transport.close();
    this.#smtp.clear();
  }
}

/** The messages a mailer's local outbox holds in memory (empty when SMTP is in use). */
export function readOutbox(ctx: { mailer: Mailer }): OutboxEntry[] {
  return ctx.mailer.outbox?.messages() ?? [];
}
