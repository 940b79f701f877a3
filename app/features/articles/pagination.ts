/** Knowledge center pagination rules (spec: public-side section 2, Knowledge center). */

/** Articles per knowledge center page: three rows of the three-column grid. */
export const KNOWLEDGE_CENTER_PAGE_SIZE = 9;

export type PageItem = number | "ellipsis-start" | "ellipsis-end";

/**
 * The page buttons to show: the first, the last, and the current page ±1, with an ellipsis
 * wherever pages are skipped. A gap of exactly one page shows that page instead of an ellipsis,
 * so an ellipsis always stands for at least two pages.
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const wanted = new Set([1, totalPages, page - 1, page, page + 1]);
  // Fill one-page gaps: "1 … 3" would hide a single page behind an ellipsis.
  if (wanted.has(3) && !wanted.has(2)) wanted.add(2);
  if (wanted.has(totalPages - 2) && !wanted.has(totalPages - 1)) wanted.add(totalPages - 1);
  const pages = [...wanted].filter((p) => p >= 1 && p <= totalPages).sort((a, b) => a - b);
  const items: PageItem[] = [];
  pages.forEach((p, i) => {
    const prev = pages[i - 1];
    if (prev !== undefined && p - prev > 1) items.push(prev === 1 ? "ellipsis-start" : "ellipsis-end");
    items.push(p);
  });
  return items;
}

/** 'Showing a-b of n articles': the 1-based positions of the first and last article on a page. */
export function pageRange(page: number, limit: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from: Math.min(from, total), to: Math.min(page * limit, total) };
}

/** A page number from the URL: a positive integer, else 1. */
export function parsePageParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 1;
  const n = Number(value);
  return n >= 1 ? n : 1;
}

/** The knowledge center URL of a category and page; page 1 and "all categories" stay implicit. */
export function knowledgeCenterSearch({ category, page }: { category?: string | null; page?: number }): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (page && page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `?${s}` : "";
}
