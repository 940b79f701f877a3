import nodemailer, { type Transporter } from "nodemailer";

export interface MailConfig {
  /** SMTP_URL; without it the site sends no mail of its own (replies, welcome messages). */
  smtpUrl?: string;
  mailFrom?: string;
  /** The association's address: the sender when MAIL_FROM is unset, and where answers go. */
  contactEmail: string;
  orgName: string;
}

/**
 * The site's own mail to one person (a reply to a submission's sender, a new member's
 * welcome), from the association, answers going to its contact address. Sent at once: the
 * caller learns whether the mail server took it.
 */
export class Mailer {
  private transport: Transporter | null;

  constructor(private config: MailConfig) {
    this.transport = config.smtpUrl
      ? nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
      : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends one message and resolves once the mail server took it; rejects when it did not. */
  async send(to: string, subject: string, text: string): Promise<void> {
    if (!this.transport) throw new Error("mail is not configured");
    await this.transport.sendMail({
      from: this.config.mailFrom || `${this.config.orgName} <${this.config.contactEmail}>`,
      to,
      replyTo: this.config.contactEmail,
      subject,
      text,
    });
  }
}
