/**
 * Renders scripts/share-card/card.html to public/share-card.png (1200x630, the Open Graph
 * and twitter:image of every page) with the system Chromium. Run after changing the card.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { chromePath } from "../../tests/e2e/env";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, "../../public/share-card.png");

const browser = await chromium.launch({
  executablePath: chromePath(),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(path.join(here, "card.html")).href, { waitUntil: "load" });
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1200, height: 630 } });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
}
