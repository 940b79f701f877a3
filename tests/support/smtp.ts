import net, { type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/* A real SMTP server for the tests of what the site mails. */

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on an ephemeral port that keeps what it receives. */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
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
