/**
 * The mail transport used when no SMTP server is configured: each message is
 * appended as one JSON line to `<data dir>/outbox.jsonl` (mode 0600: the file
 * holds live reset links) and kept in memory, where tests read it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MailMessage, MailTransport } from './transport.js';
import { isoAt } from '../clock.js';

export interface OutboxEntry extends MailMessage {
  /** ISO time the message was written. */
  sent_at: string;
}

export class OutboxTransport implements MailTransport {
  readonly file: string;
  readonly #messages: OutboxEntry[] = [];

  constructor(
    dataDir: string,
    private readonly now: () => number,
  ) {
    this.file = path.join(dataDir, 'outbox.jsonl');
  }

  async send(message: MailMessage): Promise<void> {
    const entry: OutboxEntry = { sent_at: isoAt(this.now()), ...message };
    // Kept in memory before the first await, so a message handed over without
    // waiting (as the endpoints do) is readable as soon as `send` was called.
    this.#messages.push(entry);
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    // The mode applies when the file is created; appendFile creates it if missing.
    await fs.promises.appendFile(this.file, JSON.stringify(entry) + '\n', { mode: 0o600 });
  }

  /** The messages this process sent, oldest first (a copy). */
  messages(): OutboxEntry[] {
    return [...this.#messages];
  }
}
