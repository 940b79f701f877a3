import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "~/platform/logger.server";
import { literalSubject } from "~/platform/mailer.server";
import { SUBMISSION_KINDS, submissionReference, type SubmissionKind } from "./kinds";
import type { SubmissionRow } from "./repository.server";
import { subjectLabel } from "./schemas";

export interface NotifierConfig {
  smtpUrl?: string;
  notifyEmail?: string;
  mailFrom?: string;
  orgName: string;
}

export interface StaffMessage {
  subject: string;
  text: string;
  replyTo: string;
}

/**
 * One e-mail to staff per new submission, when SMTP_URL and NOTIFY_EMAIL are set. It is
 * sent after the row is stored and in the background: the visitor's answer never waits for
 * the mail server, and a failed send is logged, never lost data.
 */
export class StaffNotifier {
  private transport: Transporter | null;
  private pending = new Set<Promise<void>>();
  /** Notifications the mail server took and refused since the start (GET /metrics). */
  readonly counts = { sent: 0, failed: 0 };

  constructor(
    private config: NotifierConfig,
    private logger: Logger,
  ) {
    this.transport =
      config.smtpUrl && config.notifyEmail
        ? nodemailer.createTransport({
            url: config.smtpUrl,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
          })
        : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Starts sending and returns at once; never throws. */
  submissionReceived<K extends SubmissionKind>(kind: K, row: SubmissionRow<K>): void {
    if (!this.transport) return;
    const message = composeStaffMessage(kind, row, this.config.orgName);
    const reference = submissionReference(kind, row.id);
    const sending = this.send(message)
      .then(() => {
        this.counts.sent++;
        this.logger.info({ submission: reference }, "staff notified of a new submission");
      })
      .catch((err: unknown) => {
        this.counts.failed++;
        const e = err as { message?: string; code?: string };
        // The error text only: the SMTP URL (with its password) stays out of the log.
        this.logger.error({ submission: reference, error: e?.message, code: e?.code }, "staff notification failed");
      })
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Notifications started and not yet sent or failed: the outbox's backlog (they are held in memory). */
  get backlog(): number {
    return this.pending.size;
  }

  /** Resolves when every notification started so far has been sent or has failed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  close() {
    this.transport?.close();
  }

  private async send(message: StaffMessage) {
    const from = this.config.mailFrom || `${this.config.orgName} <${this.config.notifyEmail}>`;
    await this.transport!.sendMail({
      from,
      to: this.config.notifyEmail,
      replyTo: message.replyTo,
      subject: literalSubject(message.subject),
      text: message.text,
    });
  }
}

/** Subject and plain-text body of the staff e-mail for one stored submission. */
export function composeStaffMessage<K extends SubmissionKind>(kind: K, row: SubmissionRow<K>, orgName: string): StaffMessage {
  const { label } = SUBMISSION_KINDS[kind];
  const lines: [string, string | null | undefined][] = [];
  let who: string;
  let replyTo: string;
  let longText: [string, string | null][] = [];

  if (kind === "contact") {
    const r = row as SubmissionRow<"contact">;
    who = r.name;
    replyTo = r.email;
    lines.push(["Name", r.name], ["Email", r.email], ["Phone", r.phone], ["Subject", subjectLabel(r.subject)]);
    longText = [["Message", r.message]];
  } else if (kind === "cpa") {
    const r = row as SubmissionRow<"cpa">;
    who = fullName(r.first_name, r.last_name);
    replyTo = r.email;
    lines.push(
      ["Name", who],
      ["Email", r.email],
      ["Phone", r.phone],
      ["Membership ID", r.member_id],
      ["Firm", r.firm_name],
      ["City", r.city],
      ["State", r.state],
      ["ZIP", r.zip],
    );
    longText = [["Notes", r.notes]];
  } else {
    const r = row as SubmissionRow<"homeowner">;
    who = fullName(r.first_name, r.last_name);
    replyTo = r.email;
    const address = [r.address1, r.address2, [r.city, r.state, r.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
    lines.push(["Name", who], ["Email", r.email], ["Phone", r.phone], ["Membership ID", r.member_id], ["Address", address]);
    longText = [
      ["Materials requested", r.materials_requested],
      ["Notes", r.notes],
    ];
  }

  const reference = submissionReference(kind, row.id);
  const body = [
    `A new ${label} was received on the ${orgName} website.`,
    "",
    `Reference: ${reference}`,
    `Received: ${row.submitted_at}`,
    ...lines.map(([name, value]) => `${name}: ${value || "—"}`),
    ...longText.flatMap(([name, value]) => ["", `${name}:`, value || "—"]),
    "",
    "It is listed as pending under Form Submissions in the admin panel.",
    "",
  ].join("\n");

  return {
    subject: oneLine(`New ${label} from ${who}`, 180),
    text: body,
    replyTo,
  };
}

function fullName(first: string, last: string | null) {
  return last ? `${first} ${last}` : first;
}

function oneLine(text: string, max: number) {
  const flat = text.replace(/[\r\n\t]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
