/**
 * SMTP delivery through nodemailer, for `GATEHOUSE_SMTP_URL`
 * (`smtp://user:pass@host:587` with STARTTLS when offered, or `smtps://…:465`)
 * or a tenant's own server (`/api/v2/emails/provider`: see ./index.ts).
 */
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { lazyModule } from '../lazy.js';
import type { MailMessage, MailTransport } from './transport.js';

/** Loaded when the first SMTP transport is made: a server that writes mail to its outbox never needs it. */
const nodemailer = lazyModule<typeof Nodemailer>('nodemailer');

export class SmtpTransport implements MailTransport {
  readonly #transporter: Transporter;

  constructor(
    server: string | SMTPTransport.Options,
    private readonly from: string,
  ) {
    // No nodemailer logger: its debug output would include message bodies.
    this.#transporter = nodemailer().createTransport(server);
  }

  async send(message: MailMessage): Promise<void> {
    await this.#transporter.sendMail({
      from: message.from ?? this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined && { html: message.html }),
    });
  }

  close(): void {
    this.#transporter.close();
  }
}
