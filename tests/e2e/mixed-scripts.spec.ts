import crypto from "node:crypto";
import { MEMBER_BIRTHDATE, expect, expectNoAxeViolations, test } from "./fixtures";

/** Issue 39 §3.5: a look-alike name ("Аlice" with a Cyrillic А) is marked where staff choose between members. */
test("the members list marks a name that mixes scripts, and only that one", async ({ page, signIn, services }) => {
  const tag = `MIX${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
  for (const [n, first] of [
    [1, "Alice"],
    [2, "\u0410lice"],
  ] as const)
    await services.auth.users.createMember({
      certificate: `${tag}-${n}`,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: first,
      lastName: "Anders",
    });
  await signIn("limited_admin");
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/admin/members?q=${tag.toLowerCase()}`);
    // The list is a table on a wide screen and cards on a narrow one: whichever is shown.
    const shown = page.locator("tr:visible, li:visible");
    await expect(shown.filter({ hasText: `${tag}-1` })).toHaveCount(1);
    const marks = page.locator("[data-testid=mixed-scripts]:visible");
    await expect(marks).toHaveCount(1);
    await expect(shown.filter({ hasText: `${tag}-2` }).getByTestId("mixed-scripts")).toHaveText(
      "⚠ mixed scriptsMixed scripts: this name mixes Cyrillic and Latin letters and may imitate another name.",
    );
    await expect(marks.getByText("⚠ mixed scripts", { exact: true })).toBeVisible();
    await expect(shown.filter({ hasText: `${tag}-1` }).getByTestId("mixed-scripts")).toHaveCount(0);
    await expectNoAxeViolations(page);
    await marks.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.tmp/mixed-scripts-${width}.png` });
  }
});
