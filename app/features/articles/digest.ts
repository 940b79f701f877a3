import { formatDay } from "~/platform/dates";
import { ARTICLE_CATEGORIES, categoryLabel } from "~/domain/article-categories";

/** The month's plain-text digest (GET /api/rss/export), ready to paste into a newsletter. */

export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const DIGEST_SUMMARY_MAX = 240;

export interface DigestArticle {
  title: string;
  summary: string | null;
  link: string;
  category: string;
  published_at: string;
  source_name: string | null;
}

/** [from, to) of a YYYY-MM month in UTC, or null when the text is not one. */
export function monthRange(month: string): { from: string; to: string; label: string } | null {
  const m = MONTH_PATTERN.exec(month);
  if (!m) return null;
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear takes the year as written.
  const from = new Date(0);
  from.setUTCFullYear(year, index, 1);
  const to = new Date(0);
  to.setUTCFullYear(year, index + 1, 1);
  const label = from.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
  return { from: from.toISOString(), to: to.toISOString(), label };
}

export function currentMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The earliest month the export accepts. */
export const EARLIEST_EXPORT_MONTH = "1970-01";

/** The latest month the export accepts: next month (UTC), so a digest can be prepared ahead. */
export function latestExportMonth(now = new Date()): string {
  return currentMonth(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
}

/** Why a YYYY-MM month cannot be exported, or null when it can. */
export function exportMonthError(month: string, now = new Date()): string | null {
  if (!MONTH_PATTERN.test(month)) return "Month must be in YYYY-MM format";
  const latest = latestExportMonth(now);
  // Zero-padded YYYY-MM texts sort like the months they name.
  if (month < EARLIEST_EXPORT_MONTH || month > latest) return `Month must be between ${EARLIEST_EXPORT_MONTH} and ${latest}`;
  return null;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}

const shortDate = (iso: string) => formatDay(iso, "UTC") ?? "";

/**
 * Articles grouped by category (in the admin's category order), newest first in each group:
 * title, source and date, a short summary, the link.
 */
export function formatDigest(opts: { orgName: string; monthLabel: string; articles: DigestArticle[]; total: number }): string {
  const { orgName, monthLabel, articles, total } = opts;
  const lines: string[] = [];
  const heading = `${orgName} Knowledge Center: ${monthLabel}`;
  lines.push(heading, "=".repeat(heading.length), "");
  if (!articles.length) {
    lines.push(`No articles were published in ${monthLabel}.`, "");
    return lines.join("\n");
  }
  lines.push(`${total} article${total === 1 ? "" : "s"} this month.`, "");

  const order = new Map<string, number>(ARTICLE_CATEGORIES.map((c, i) => [c, i]));
  const groups = new Map<string, DigestArticle[]>();
  for (const a of articles) {
    const list = groups.get(a.category) ?? [];
    list.push(a);
    groups.set(a.category, list);
  }
  const categories = [...groups.keys()].sort((a, b) => (order.get(a) ?? 999) - (order.get(b) ?? 999) || a.localeCompare(b));
  for (const category of categories) {
    const list = groups.get(category)!;
    const title = `${categoryLabel(category)} (${list.length})`;
    lines.push(title, "-".repeat(title.length), "");
    for (const a of list) {
      lines.push(`* ${a.title}`);
      lines.push(`  ${[a.source_name, shortDate(a.published_at)].filter(Boolean).join(" · ")}`);
      if (a.summary) lines.push(`  ${clip(a.summary, DIGEST_SUMMARY_MAX)}`);
      lines.push(`  ${a.link}`, "");
    }
  }
  if (total > articles.length) lines.push(`… and ${total - articles.length} more articles not listed here.`, "");
  return lines.join("\n");
}
