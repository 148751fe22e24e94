/**
 * SMTP delivery through nodemailer, for `GATEHOUSE_SMTP_URL`
 * (`smtp://user:pass@host:587` with STARTTLS when offered, or `smtps://…:465`).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, MailTransport } from './transport.js';

export class SmtpTransport implements MailTransport {
  readonly #transporter: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // No nodemailer logger: its debug output would include message bodies.
    this.#transporter = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.#transporter.sendMail({
      from: this.from,
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
