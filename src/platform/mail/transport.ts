/**
 * Outgoing mail behind one interface. Messages carry one-use links (email
 * verification, password reset), so their bodies are never logged: only the
 * fact that a message was sent, and never its recipient's link.
 */
export interface MailMessage {
  to: string;
  /** The sender, when not the transport's own (a tenant's template or provider names one). */
  from?: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  /** Delivers (or queues) the message; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
}
