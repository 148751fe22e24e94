/**
 * Which mail transport a tenant's mail goes through:
 *
 * - the tenant's own SMTP server when it has one set and enabled
 *   (`/api/v2/emails/provider`; the composition root hands the Mailer a
 *   lookup of it), from the message's sender, else the provider's
 *   `default_from_address`, else the process's sender. With a user and
 *   password the server must offer TLS (STARTTLS, or implicit TLS on port
 *   465) and present a certificate of a trusted authority (the system roots
 *   and `GATEHOUSE_SMTP_CA_FILE`): credentials never travel in the clear.
 *   The server's name is resolved here and only a public address (or one in
 *   GATEHOUSE_OUTBOUND_ALLOW's ranges, ../http/outbound-guard.ts) is
 *   connected to, the name kept for TLS;
 * - else, from the environment, `GATEHOUSE_SMTP_URL` (smtp:// or smtps://
 *   URL), from `GATEHOUSE_MAIL_FROM` (default `no-reply@<tenant domain>`,
 *   without the port);
 * - else the local outbox, `<data dir>/outbox.jsonl`.
 *
 * The settings come from the configuration (src/platform/config.ts); the
 * composition root builds one Mailer per process.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Config } from '../config.js';
import { PUBLIC_ONLY, resolveAllowed, type OutboundPolicy } from '../http/outbound-guard.js';
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

/** The tenant a message is sent for. */
export interface MailTenant {
  id: string;
  domain: string;
}

/** A tenant's own SMTP server, credentials opened. */
export interface TenantSmtpServer {
  host: string;
  port: number;
  user?: string;
  pass?: string;
  /** `default_from_address`. */
  from?: string;
}

/** The tenant's SMTP server when it has one set and enabled. */
export type TenantSmtpLookup = (tenantId: string) => Promise<TenantSmtpServer | undefined>;

/**
 * Sends through SMTP or the outbox; for SMTP one nodemailer transport per
 * sender address (tenants differ in their default sender), and one per
 * tenant server (keyed by a hash of its settings, so a change makes a new one).
 */
export class Mailer {
  readonly outbox: OutboxTransport | undefined;
  readonly #smtp = new Map<string, SmtpTransport>();
  #tenantServers: TenantSmtpLookup | undefined;

  constructor(
    private readonly settings: MailSettings,
    dataDir: string,
    now: () => number,
    private readonly outbound: OutboundPolicy = PUBLIC_ONLY,
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

  /** Where tenants' own SMTP servers are found (set once by the composition root). */
  useTenantServers(lookup: TenantSmtpLookup): void {
    this.#tenantServers = lookup;
  }

  /** The transport for the tenant's mail: its own server when it has one, else the process's (see the file comment). */
  async transportForTenant(tenant: MailTenant): Promise<MailTransport> {
    const server = await this.#tenantServers?.(tenant.id);
    return server ? this.#tenantTransport(server, await resolveAllowed(server.host, this.outbound), tenant.domain) : this.transportFor(tenant.domain);
  }

  async send(tenant: MailTenant, message: MailMessage): Promise<void> {
    return (await this.transportForTenant(tenant)).send(message);
  }

  #tenantTransport(server: TenantSmtpServer, address: string, tenantDomain: string): SmtpTransport {
    const from = server.from ?? senderFor(this.settings, tenantDomain);
    const key = 'tenant:' + createHash('sha256').update(JSON.stringify([server, address, from])).digest('base64url');
    let transport = this.#smtp.get(key);
    if (!transport) {
      const withCredentials = server.user !== undefined;
      transport = new SmtpTransport(
        {
          host: address,
          port: server.port,
          secure: server.port === 465,
          requireTLS: withCredentials,
          ...(withCredentials && { auth: { user: server.user!, pass: server.pass ?? '' } }),
          tls: { rejectUnauthorized: true, ...(!isIP(server.host) && { servername: server.host }), ...(this.settings.tenantSmtpCa !== undefined && { ca: [...tls.rootCertificates, this.settings.tenantSmtpCa] }) },
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        },
        from,
      );
      this.#smtp.set(key, transport);
    }
    return transport;
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
