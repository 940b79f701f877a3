import crypto from "node:crypto";
import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { loadConfig } from "../../app/platform/config.server";
import { databaseOptions, startServices } from "../../app/server/bootstrap.server";
import type { Services } from "../../app/server/services.server";
import { sessionCookieName } from "../../app/features/auth/cookie.server";
import { E2E_BASE, E2E_ENV } from "./env";

type Role = "member" | "limited_admin" | "super_admin";

export interface SignedIn {
  userId: number;
  certificate?: string;
  username?: string;
  token: string;
}

/**
 * Browser-test fixtures. `services` opens the same database as the server under test, so a
 * test can create accounts and sessions directly and then drive the UI.
 */
export const test = base.extend<
  { signIn: (role: Role, opts?: { context?: BrowserContext; firstName?: string }) => Promise<SignedIn> },
  { services: Services }
>({
  services: [
    async ({}, use) => {
      const config = loadConfig({ ...process.env, ...E2E_ENV });
      const services = await startServices(config, { database: databaseOptions(config) });
      await use(services);
      await services.database.close();
    },
    { scope: "worker" },
  ],
  signIn: async ({ services, context }, use) => {
    await use(async (role, opts = {}) => {
      const account = await createAccount(services, role, opts.firstName);
      const user = (await services.auth.users.findById(account.userId))!;
      const { token, expiresAt } = await services.auth.sessions.create(user, false);
      await (opts.context ?? context).addCookies([
        {
          name: sessionCookieName(false),
          value: token,
          url: E2E_BASE,
          httpOnly: true,
          sameSite: "Lax",
          expires: Math.floor(expiresAt.getTime() / 1000),
        },
      ]);
      return { ...account, token };
    });
  },
});

export const MEMBER_BIRTHDATE = "1985-03-07";
export const MEMBER_PASSWORD = "030785";
export const STAFF_PASSWORD = "correct horse battery";

/** Creates an account with a unique certificate number or username. */
export async function createAccount(services: Services, role: Role, firstName = "Jordan") {
  const suffix = crypto.randomBytes(4).toString("hex").toUpperCase();
  if (role === "member") {
    const certificate = `AHA${suffix}`;
    const { id } = await services.auth.users.createMember({
      certificate,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName,
      lastName: "Member",
    });
    return { userId: id, certificate };
  }
  const username = `${role.replace("_", "")}${suffix}`.toLowerCase();
  const { id } = await services.auth.createStaff(username, STAFF_PASSWORD, role);
  return { userId: id, username };
}

/**
 * Runs axe-core on the page and fails with the list of violations. Beside axe's default rules
 * it runs `label-content-name-mismatch` (experimental, so off by default): a control's
 * accessible name must start with its visible text, or speech users cannot name it.
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).options({ rules: { "label-content-name-mismatch": { enabled: true } } }).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")})`,
  );
  expect(summary, "axe violations").toEqual([]);
}

/** A form control by its label, whether the label marks it required ("*") or "(optional)". */
export const byFieldLabel = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s*\\*|\\s*\\(optional\\))?$`));

/**
 * A field's error sits beside it: under its own label in the field's box, marked on the control
 * (aria-invalid) and read with it (the first id of its aria-describedby names the message).
 */
export async function expectFieldError(page: Page, label: string, message: string) {
  const control = byFieldLabel(page, label);
  await expect(control, label).toHaveAttribute("aria-invalid", "true");
  const errorId = ((await control.getAttribute("aria-describedby")) ?? "").split(" ")[0];
  await expect(page.locator(`[id="${errorId}"]`), label).toHaveText(message);
  const field = control.locator("xpath=ancestor::div[.//label][1]");
  await expect(field.getByText(message, { exact: true }), label).toBeVisible();
}

export { expect };
