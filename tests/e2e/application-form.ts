import type { Page } from "@playwright/test";
import { byFieldLabel, expect } from "./fixtures";

/* The membership application's controls, shared by the specs that fill it in. */

/** A form control by its label, whether the label marks it required (*) or "(optional)". */
export const field = (page: Page, label: string) => byFieldLabel(page, label);

export const signature = (page: Page, name: string) => page.getByTestId(`signature-${name}`);

/** Draws a zig-zag on a signature area with the mouse. */
export async function sign(page: Page, name: string) {
  const canvas = signature(page, name).locator("canvas");
  // The pad attaches once the page is hydrated; strokes before that draw nothing.
  await expect(canvas).toHaveAttribute("data-ready", "true");
  // A smooth scroll started earlier (the error summary taking the focus) may still be running
  // and carry the page away: bring the canvas to the middle until it stays there for two
  // frames and a pointer at the stroke's start would land on it.
  let box = (await canvas.boundingBox())!;
  await expect(async () => {
    await canvas.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
    const first = (await canvas.boundingBox())!;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    box = (await canvas.boundingBox())!;
    expect(box).toEqual(first);
    const hit = await canvas.evaluate((el, [x, y]) => document.elementFromPoint(x, y) === el, [box.x + 20, box.y + box.height / 2]);
    expect(hit).toBe(true);
  }).toPass({ timeout: 15_000 });
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++)
    await page.mouse.move(box.x + 20 + i * Math.min(30, (box.width - 40) / 8), y + (i % 2 ? -40 : 40), { steps: 4 });
  await page.mouse.up();
  await expect(canvas).toHaveAttribute("data-signed", "true");
}
