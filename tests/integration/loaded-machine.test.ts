import net from "node:net";
import fs from "node:fs";
import { expect, it, vi } from "vitest";
import { endWhatTheFileLeftOpen, LOADED_TEST_TIMEOUT_MS, openCount } from "../support/loaded-machine";
import { startSmtp } from "../support/smtp";
import { startSiblingServer, startTestServer } from "../support/test-app";

vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

/**
 * What a test that timed out leaves behind (issue 48 §5): the servers, second instances, SMTP
 * servers and contexts it started, never closed by its body, are ended at the file's end
 * (tests/support/setup.ts), their services' timers stopped, so the next file in the worker
 * finds none of them.
 */
it("ends every server, second instance, SMTP server and context a test left open; a close already done is not done twice", async () => {
  expect(openCount()).toBe(0);
  const server = await startTestServer("sqlite", { SMTP_URL: "smtp://127.0.0.1:9", PUBLIC_URL: "https://aha.example" });
  const sibling = await startSiblingServer(server);
  const smtp = await startSmtp();
  const closedByItsTest = await startSmtp();
  await closedByItsTest.close();
  expect(openCount()).toBe(4); // a server and its context, the sibling, the SMTP server left open
  const ports = [new URL(server.url).port, new URL(sibling.url).port, smtp.port].map(Number);
  for (const port of ports) expect(await refuses(port)).toBe(false);

  await endWhatTheFileLeftOpen();
  expect(openCount()).toBe(0);
  for (const port of ports) expect(await refuses(port)).toBe(true);
  expect(fs.existsSync(server.dataDir)).toBe(false);
  // The outbox's sender is stopped: a kick starts no run on a closed database.
  expect(server.services.reminders["stopped"]).toBe(true);
  expect(sibling.services.reminders["stopped"]).toBe(true);
  // A later close, by the test's own finally, does nothing more.
  await server.close();
  await closedByItsTest.close();
});
