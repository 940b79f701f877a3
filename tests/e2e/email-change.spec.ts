import crypto from "node:crypto";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { decodeBody, startSmtp } from "../support/smtp";
import { startSecondSite } from "./second-site";

/**
 * Issue 39 §3.1: a member's new e-mail address takes effect once the link sent to it is
 * followed. The browser tests' site sends no mail; a second instance of the build, on the same
 * database, mails the test's own SMTP server.
 */
test("a member changes their e-mail address: a link goes to the new one, following it makes it theirs", async ({
  page,
  signIn,
  services,
}) => {
  // A second instance of the build starts inside the test: room for a busy machine.
  test.slow();
  const tag = crypto.randomBytes(3).toString("hex");
  const old = `old-${tag}@example.com`;
  const next = `new-${tag}@example.com`;
  const member = await signIn("member");
  await services.database.db.updateTable("users").set({ email: old }).where("id", "=", member.userId).execute();
  const smtp = await startSmtp();
  // Its links are built from PUBLIC_URL alone (never the request's Host): its own address here.
  const port = Number(process.env.E2E_EXTRA_PORT ?? 3221);
  const site = await startSecondSite({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL: `http://127.0.0.1:${port}` }, { port });
  try {
    await page.goto(`${site.url}/account`);
    const email = page.getByLabel(/^E-mail/);
    await expect(email).toHaveValue(old);
    await email.fill(next);
    await page.getByRole("button", { name: "Save contact details" }).click();
    await expect(page.getByTestId("email-pending")).toHaveText(`We sent a link to ${next}: the change takes effect when you follow it.`);
    // The address on record stays until the link is followed.
    await expect(email).toHaveValue(old);
    await expectNoAxeViolations(page);
    await page.getByTestId("email-pending").scrollIntoViewIfNeeded();
    await page.screenshot({ path: ".tmp/email-change-sent-1280.png" });

    await expect.poll(() => smtp.received.filter((m) => m.to.includes(next)).length).toBe(1);
    const body = decodeBody(smtp.received.find((m) => m.to.includes(next))!.raw);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/account\/email\/[A-Za-z0-9_-]{43})/.exec(body)![1];

    // After a reload the page says what waits.
    await page.reload();
    await expect(page.getByTestId("email-pending")).toHaveText(
      `Waiting for confirmation: ${next}. Follow the link we sent there to use it.`,
    );

    for (const [width, height] of [
      [390, 844],
      [1280, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Confirm your new e-mail address" })).toBeVisible();
      await expect(page.getByText(`Use ${next} for your membership?`)).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `.tmp/email-change-confirm-${width}.png` });
    }
    await page.getByRole("button", { name: "Confirm new address" }).click();
    await expect(page.getByRole("status")).toHaveText(`Your e-mail address is now ${next}.`);
    await page.screenshot({ path: ".tmp/email-change-done-1280.png" });
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(old)).length).toBe(1);

    await page.getByRole("link", { name: "Go to My account" }).click();
    await expect(page.getByLabel(/^E-mail/)).toHaveValue(next);
    await expect(page.getByTestId("email-pending")).toHaveCount(0);

    // The link works once.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(link);
    await expect(page.getByRole("alert")).toHaveText("This link was already used.");
    await page.screenshot({ path: ".tmp/email-change-used-390.png" });
  } finally {
    await site.close();
    await smtp.close();
  }
});
