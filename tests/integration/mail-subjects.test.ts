import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../support/test-app";
import { startSmtp, type ReceivedMail } from "../support/smtp";
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** The Subject header of a received mail, unfolded and with its RFC 2047 encoded words decoded, as a mail program shows it. */
function shownSubject(mail: ReceivedMail): string {
  const head = mail.raw.split("\r\n\r\n")[0].replace(/\r\n[ \t]/g, " ");
  const line = head.split("\r\n").find((l) => /^subject:/i.test(l));
  if (!line) throw new Error("no Subject header");
  const value = line.slice("subject:".length).trim();
  // Whitespace between two encoded words is not part of the text (RFC 2047, section 6.2).
  return value
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/** Text a submitter types that spells an encoded word: a mail program would show "Urgent: wire $9,000 now". */
const ENCODED_WORD = `=?UTF-8?B?${Buffer.from("Urgent: wire $9,000 now").toString("base64")}?=`;

describeEachDatabase("mail subjects show the text typed", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(dialect, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, NOTIFY_EMAIL: "staff@example.com" });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it("a sender's name that spells an RFC 2047 encoded word reaches the staff mail's subject as typed, and so does a staff reply's subject", async () => {
    const sent = await server.request("/api/forms", {
      method: "POST",
      json: { name: `Dana ${ENCODED_WORD}`, email: "dana@example.com", phone: "", subject: "general", message: "Hello" },
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: number };
    await expect.poll(() => smtp.received.filter((m) => m.to.includes("staff@example.com")).length, { timeout: LOADED_WAIT_MS }).toBe(1);
    const staffMail = smtp.received.find((m) => m.to.includes("staff@example.com"))!;
    expect(shownSubject(staffMail)).toMatch(new RegExp(`from Dana ${ENCODED_WORD.replace(/[$?=+/]/g, "\\$&")}$`));
    expect(shownSubject(staffMail)).not.toContain("Urgent");

    const { cookie } = await loginAs(server, "super_admin");
    const subject = `Re: ${ENCODED_WORD}`;
    const reply = await server.request(`/api/admin/submissions/contact_${id}/reply`, {
      method: "POST",
      cookie,
      json: { subject, message: "Thank you." },
    });
    expect(reply.status).toBe(201);
    const answer = smtp.received.find((m) => m.to.includes("dana@example.com"))!;
    expect(shownSubject(answer)).toBe(subject);
  });
});
