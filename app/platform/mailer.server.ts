import nodemailer, { type Transporter } from "nodemailer";

export interface MailConfig {
  /** SMTP_URL; without it the site sends no mail of its own (replies, welcome messages). */
  smtpUrl?: string;
  mailFrom?: string;
  /** The association's address: the sender when MAIL_FROM is unset, and where answers go. */
  contactEmail: string;
  orgName: string;
}

export interface MailerOptions {
  /**
   * Many messages (membership reminders): kept-open SMTP connections, at most this many at
   * once; messages beyond wait their turn in the pool. Without it, a connection per message.
   */
  maxConnections?: number;
}

/**
 * The site's own mail to one person (a reply to a submission's sender, a new member's
 * welcome, a membership reminder), from the association, answers going to its contact
 * address. Sent at once: the caller learns whether the mail server took it.
 */
export class Mailer {
  private transport: Transporter | null;
  /** Messages the mail server took and refused since the start (GET /metrics). */
  readonly counts = { sent: 0, failed: 0 };

  constructor(
    private config: MailConfig,
    options: MailerOptions = {},
  ) {
    const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
    const pool = options.maxConnections ? { pool: true as const, maxConnections: options.maxConnections } : {};
    this.transport = config.smtpUrl ? nodemailer.createTransport({ url: config.smtpUrl, ...timeouts, ...pool }) : null;
  }

  /** Closes a pool's connections (a mail still being sent is finished first by the server's timeout). */
  close(): void {
    this.transport?.close();
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /**
   * Sends one message and resolves once the mail server took it; rejects when it did not.
   * `headers`: the site's own (List-Unsubscribe of an announcement), never a value a person typed.
   */
  async send(to: string, subject: string, text: string, headers?: Record<string, string>): Promise<void> {
    if (!this.transport) throw new Error("mail is not configured");
    try {
      await this.transport.sendMail({
        from: this.config.mailFrom || `${this.config.orgName} <${this.config.contactEmail}>`,
        to,
        replyTo: this.config.contactEmail,
        subject: literalSubject(subject),
        text,
        ...(headers ? { headers } : {}),
      });
    } catch (err) {
      this.counts.failed++;
      throw err;
    }
    this.counts.sent++;
  }
}

/**
 * A subject that mail programs show as typed. Nodemailer sends an ASCII subject as it is, so
 * text that spells an RFC 2047 encoded word (`=?UTF-8?B?...?=`, in a sender's name) would be
 * decoded by the reader's mail program into other text: such a subject is sent encoded
 * itself, as whole encoded words (of 45 bytes at most: 72 characters each), whose content is
 * never decoded again.
 */
export function literalSubject(subject: string): string {
  if (!subject.includes("=?")) return subject;
  const pieces: string[] = [];
  let piece = "";
  for (const char of subject) {
    if (Buffer.byteLength(piece + char) > 45) {
      pieces.push(piece);
      piece = "";
    }
    piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces.map((p) => `=?UTF-8?B?${Buffer.from(p).toString("base64")}?=`).join(" ");
}
