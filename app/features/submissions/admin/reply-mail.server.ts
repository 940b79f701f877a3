import nodemailer, { type Transporter } from "nodemailer";

export interface ReplyMailConfig {
  /** SMTP_URL; without it the site sends no replies and the dialog shows no reply form. */
  smtpUrl?: string;
  mailFrom?: string;
  /** The association's address: the sender when MAIL_FROM is unset, and where answers go. */
  contactEmail: string;
  orgName: string;
}

/** Staff's e-mail reply to the sender of a submission, from the detail dialog. */
export class ReplyMailer {
  private transport: Transporter | null;

  constructor(private config: ReplyMailConfig) {
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
