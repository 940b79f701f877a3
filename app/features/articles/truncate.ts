/** Text cuts shared by the knowledge center cards and the home block (spec: public-side 2, 9). */

export const ELLIPSIS = "...";
/** Knowledge center card: summary or content cut to 150 characters followed by '...'. */
export const CARD_SUMMARY_MAX = 150;

/**
 * Cuts text to at most `max` characters and appends '...' when something was cut. Whitespace
 * is collapsed first; a trailing space before the '...' is dropped.
 */
export function truncate(text: string | null | undefined, max: number): string {
  const clean = (text ?? "").replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  return Array.from(clean).slice(0, max).join("").trimEnd() + ELLIPSIS;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * Plain text of a (sanitized) HTML fragment, for display as text: inline tags dropped, block
 * tags turned into spaces, common entities decoded. The result is rendered as text, never as HTML.
 */
export function htmlToText(html: string | null | undefined): string {
  return (html ?? "")
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(
      /<\/?(p|div|br|hr|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|section|article|figure|figcaption|header|footer|pre)\b[^>]*>/gi,
      " ",
    )
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === "#") {
        const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : " ";
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** The knowledge center card text: the summary, else the content as text, cut to 150 characters. */
export function cardSummary(article: { summary?: string | null; content?: string | null }): string {
  const summary = htmlToText(article.summary);
  return truncate(summary || htmlToText(article.content), CARD_SUMMARY_MAX);
}
