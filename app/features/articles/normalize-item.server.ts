import crypto from "node:crypto";
import sanitizeHtml from "sanitize-html";
import type { PreparedArticle } from "./articles-repo.server";
import type { RawItem } from "./parse-feed.server";
import { stripControlChars } from "~/platform/text-fields";

/**
 * From a raw feed item to a stored article: plain-text title and summary, sanitized content,
 * absolute http(s) link and image, an ISO date, and the key that deduplicates it.
 */

export const TITLE_MAX = 300;
export const SUMMARY_MAX = 500;
export const SOURCE_NAME_MAX = 200;
export const CONTENT_MAX = 200_000;
export const URL_MAX = 2000;

/** An absolute http(s) URL resolved against base, or null (javascript:, data:, garbage...). */
export function absoluteHttpUrl(value: string | null | undefined, base?: string): string | null {
  if (!value) return null;
  // Browsers ignore tabs and newlines inside URLs; so must we, or "java\nscript:" slips through.
  const cleaned = value.replace(/[\t\n\r]/g, "").trim();
  if (!cleaned) return null;
  let url: URL;
  try {
    url = base ? new URL(cleaned, base) : new URL(cleaned);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  return url.href.length > URL_MAX ? null : url.href;
}

// Tags whose text must not leak into plain text or content when the tag itself is dropped.
const DROP_WITH_CONTENT = [
  "script",
  "style",
  "textarea",
  "option",
  "noscript",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "template",
  "head",
  "title",
  "select",
  "button",
  "frame",
  "frameset",
  "applet",
];

const BLOCK_TAG =
  /<\s*\/?\s*(br|p|div|li|ul|ol|h[1-6]|blockquote|tr|td|th|table|figure|figcaption|section|article|header|footer|pre|hr|dd|dt)\b[^>]*>/gi;

const TEXT_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** Plain text from HTML (or from text with entities): tags dropped, entities decoded, spaces collapsed. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return "";
  // Most titles carry no markup and no entity: no parser needed.
  if (!/[<&]/.test(html)) return cleanText(html);
  // Block boundaries become spaces, so "</figcaption><p>Next" does not glue words together.
  const withBreaks = html.replace(BLOCK_TAG, " $& ");
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {}, nonTextTags: DROP_WITH_CONTENT });
  return cleanText(text.replace(/&(amp|lt|gt|quot|#39);/g, (m) => TEXT_ENTITIES[m] ?? m));
}

/** Control characters out, runs of white space (and no-break/zero-width spaces) as one space. */
function cleanText(text: string): string {
  return stripControlChars(text, { keepLineBreaks: true })
    .replace(/[\s\u00A0\u200B]+/g, " ")
    .trim();
}

/** Text cut at a word boundary to at most max characters, with an ellipsis when cut. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}

/** Plain text from a title that is either text or HTML. */
export function plainTitle(raw: string | null, isText: boolean): string {
  if (!raw) return "";
  const text = isText ? raw.replace(/[\s\u00A0]+/g, " ").trim() : htmlToText(raw);
  return clipText(text, TITLE_MAX);
}

/** Known tracking-pixel hosts and paths, beside the generic "1x1 image" rule. */
const TRACKER =
  /(^|\.)(pixel\.wp\.com|stats\.wordpress\.com|feeds\.feedburner\.com\/~r\/|pixel\.quantserve\.com|www\.google-analytics\.com|ad\.doubleclick\.net|feedsportal\.com|pixel\.mathtag\.com)|\/~ff\/|\/~r\/|[?&]utm_[a-z]+=.*\bpixel\b/i;

function isTrackingPixel(attribs: Record<string, string>): boolean {
  const w = attribs.width?.trim();
  const h = attribs.height?.trim();
  const tiny = (v?: string) => v !== undefined && /^[01](px)?$/i.test(v);
  if (tiny(w) || tiny(h)) return true;
  const style = attribs.style ?? "";
  if (/(^|;)\s*(width|height)\s*:\s*[01](px)?\s*(;|$)/i.test(style) || /display\s*:\s*none/i.test(style)) return true;
  const src = attribs.src ?? "";
  return TRACKER.test(src.replace(/^https?:\/\//i, ""));
}

/**
 * Sanitized HTML: a safe subset of tags, no script/style/iframe/event handlers/inline styles,
 * only http(s)/mailto links (made absolute, opening in a new tab with noopener noreferrer),
 * only absolute http(s) images, tracking pixels removed.
 */
export function sanitizeContent(html: string | null | undefined, base: string): string {
  if (!html) return "";
  const options = contentOptions(base);
  const out = dropEmptyElements(sanitizeHtml(html, options)).trim();
  // Over-long content is cut and sanitized again, so no tag is left half-open.
  return out.length > CONTENT_MAX ? sanitizeHtml(out.slice(0, CONTENT_MAX), options).trim() : out;
}

/** Elements left empty once pixels and refused links are gone (share buttons, pixel wrappers). */
const EMPTY_ELEMENT = /<(a|p|span|div|figure)\b[^>]*>\s*<\/\1>/g;

function dropEmptyElements(html: string): string {
  let out = html;
  for (let prev = ""; prev !== out;) {
    prev = out;
    out = out.replace(EMPTY_ELEMENT, "");
  }
  return out;
}

function contentOptions(base: string): sanitizeHtml.IOptions {
  return {
    allowedTags: [...sanitizeHtml.defaults.allowedTags.filter((t) => t !== "menu"), "img", "picture", "del", "ins"],
    allowedAttributes: {
      a: ["href", "title", "rel", "target"],
      img: ["src", "alt", "title", "width", "height"],
      td: ["colspan", "rowspan"],
      th: ["colspan", "rowspan", "scope"],
      time: ["datetime"],
      ol: ["start"],
      blockquote: ["cite"],
      q: ["cite"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https"] },
    allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    nonTextTags: DROP_WITH_CONTENT,
    transformTags: {
      a: (tagName, attribs) => {
        const raw = attribs.href?.trim() ?? "";
        const href = /^mailto:/i.test(raw) ? raw : absoluteHttpUrl(raw, base);
        // A link whose target was refused keeps its text, as plain text.
        if (!href) return { tagName: "span", attribs: {} };
        const next: Record<string, string> = { href, rel: "noopener noreferrer", target: "_blank" };
        if (attribs.title) next.title = attribs.title;
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => {
        if (isTrackingPixel(attribs)) return { tagName, attribs: {} };
        const src = absoluteHttpUrl(attribs.src || attribs["data-src"], base);
        const next: Record<string, string> = {};
        if (src) next.src = src;
        for (const k of ["alt", "title", "width", "height"]) if (attribs[k]) next[k] = attribs[k];
        return { tagName, attribs: next };
      },
    },
    // An image left without a source (a pixel, a data: URL, a javascript: URL) goes entirely.
    exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  };
}

/** The first image of sanitized content (tracking pixels are already gone). */
export function firstImage(sanitized: string): string | null {
  const m = /<img\b[^>]*\bsrc="([^"]+)"/i.exec(sanitized);
  return m ? m[1].replace(/&amp;/g, "&") : null;
}

const EARLIEST = Date.UTC(1995, 0, 1);
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/**
 * An ISO date from the first parseable candidate. Tolerates what feeds really send: RFC 822
 * with named zones, ISO without a zone (read as UTC), a space instead of the T, lower-case
 * names, missing seconds. Dates before 1995 or more than a day ahead are not trusted: a future
 * date would pin an article to the top; the fallback is null (the caller uses first-seen time).
 */
export function parseFeedDate(candidates: string[], now = Date.now()): string | null {
  for (const raw of candidates) {
    const ms = parseOneDate(raw);
    if (ms === null || ms < EARLIEST) continue;
    if (ms > now + FUTURE_SLACK_MS) return new Date(now).toISOString();
    return new Date(ms).toISOString();
  }
  return null;
}

function parseOneDate(raw: string): number | null {
  const s = raw.trim().replace(/\s+/g, " ");
  if (!s) return null;
  // ISO-like: 2024-03-05, 2024-03-05T10:00, 2024-03-05 10:00:00, with or without a zone.
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(s);
  if (iso) {
    const [, y, mo, d, h = "00", mi = "00", se = "00", zone] = iso;
    const z = !zone ? "Z" : zone.toUpperCase() === "Z" ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${se}${z}`);
    return Number.isNaN(ms) ? null : ms;
  }
  // RFC 822 and friends; V8 knows GMT/UT/UTC and the US zones. Unknown zone names read as UTC.
  let ms = Date.parse(s);
  if (Number.isNaN(ms)) {
    const withoutZone = s.replace(/\s+\(?[A-Za-z]{2,5}\)?$/, " GMT");
    ms = Date.parse(withoutZone);
  }
  if (Number.isNaN(ms)) return null;
  // Date.parse reads a zone-less RFC date as local time; servers mean UTC.
  if (!/([+-]\d{2}:?\d{2}|\b(gmt|ut|utc|z|[ecmp][sd]t)\b)\s*$/i.test(s) && /\d{1,2}:\d{2}/.test(s)) {
    ms -= new Date(ms).getTimezoneOffset() * 60_000;
  }
  return ms;
}

/** WordPress appends "The post X appeared first on Y." to every excerpt. */
function stripBoilerplate(text: string): string {
  return text.replace(/\s*The post .{1,400}? appeared first on .{1,200}?\.?\s*$/s, "").trim();
}

export interface NormalizedItem {
  /** The feed's own identifier, untouched: the dedupe key is made from it. */
  rawGuid: string | null;
  guid: string | null;
  link: string;
  title: string;
  summary: string | null;
  content: string | null;
  image_url: string | null;
  published_at: string | null;
}

/** A feed item ready for the dedupe step, or null when it cannot make an article (no title or no safe link). */
export function normalizeItem(raw: RawItem, now = Date.now()): NormalizedItem | null {
  const link = absoluteHttpUrl(raw.link, raw.base);
  if (!link) return null;
  const htmlBase = raw.contentBase ?? link;
  const content = sanitizeContent(raw.content ?? raw.description, htmlBase);
  const summarySource = raw.description ?? raw.content;
  const summaryText = clipText(stripBoilerplate(htmlToText(summarySource)), SUMMARY_MAX);
  let title = plainTitle(raw.title, raw.titleIsText);
  if (!title) title = clipText(summaryText, 100);
  if (!title) return null;
  // Media and enclosure images first; small thumbnails (Blogger's 72 px) only when the content has no image.
  const candidates = raw.images.flatMap((img) => {
    const url = absoluteHttpUrl(img.url, htmlBase);
    return url ? [{ url, small: img.small }] : [];
  });
  const image =
    candidates.find((c) => !c.small)?.url ??
    firstImage(content) ??
    (raw.content && raw.description ? firstImage(sanitizeContent(raw.description, htmlBase)) : null) ??
    candidates[0]?.url ??
    null;
  // The raw guid only feeds the dedupe key; what is stored and shown is plain text.
  const guid = raw.guid?.trim() ? clipText(htmlToText(raw.guid), 1000) || null : null;
  return {
    rawGuid: raw.guid?.trim() || null,
    guid,
    link,
    title,
    summary: summaryText || null,
    content: content || null,
    image_url: image,
    published_at: parseFeedDate(raw.dates, now),
  };
}

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/**
 * Dedupe keys for one feed document: the guid, else the link, else a hash of title and date.
 * When a key repeats inside the same document (feeds that give every item the same guid, or
 * no guid and the same link), the repeats are told apart by link and title, so different items
 * never merge; an exact repeat (same key, link and title) is one item.
 */
export function prepareItems(items: NormalizedItem[], sourceName: string | null): PreparedArticle[] {
  const base = items.map((it) => (it.rawGuid ? `guid:${it.rawGuid}` : `link:${it.link}`));
  const counts = new Map<string, number>();
  for (const k of base) counts.set(k, (counts.get(k) ?? 0) + 1);
  const seen = new Set<string>();
  const out: PreparedArticle[] = [];
  items.forEach((it, i) => {
    let key = base[i];
    if (counts.get(key)! > 1) key = `${key}|link:${it.link}|title:${it.title}${it.rawGuid ? "" : `|date:${it.published_at ?? ""}`}`;
    const dedupeKey = sha256(key);
    if (seen.has(dedupeKey)) return;
    seen.add(dedupeKey);
    const source = sourceName ? clipText(sourceName, SOURCE_NAME_MAX) : null;
    out.push({
      dedupe_key: dedupeKey,
      guid: it.guid,
      link: it.link,
      title: it.title,
      summary: it.summary,
      content: it.content,
      image_url: it.image_url,
      published_at: it.published_at,
      source_name: source,
      content_hash: sha256(JSON.stringify([it.link, it.title, it.summary, it.content, it.image_url, it.published_at, source, it.guid])),
    });
  });
  return out;
}
