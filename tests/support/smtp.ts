import net, { type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { endsWithTheFile } from "./loaded-machine";

/* A real SMTP server for the tests of what the site mails. */

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpOptions {
  /** Returns an answer to refuse each message with (e.g. a temporary failure), or null to take it. */
  refuse?: () => string | null;
  /** Awaited before each message is answered: the sender waits for it, as for a slow server. */
  beforeAnswer?: () => Promise<void>;
}

/**
 * A real SMTP server on an ephemeral port that keeps what it receives; `connections` counts the
 * open ones and `maxConnections` the most open at once.
 */
export async function startSmtp({ refuse, beforeAnswer }: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  const stats = { connections: 0, maxConnections: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      stats.connections++;
      stats.maxConnections = Math.max(stats.maxConnections, stats.connections);
      callback();
    },
    onClose() {
      stats.connections--;
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        await beforeAnswer?.();
        const refusal = refuse?.();
        if (refusal) {
          callback(Object.assign(new Error(refusal), { responseCode: 451 }));
          return;
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return endsWithTheFile({ received, stats, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) });
}

/** Quoted-printable soft breaks and escapes undone, enough to read a plain-text mail. */
export function decodeBody(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
