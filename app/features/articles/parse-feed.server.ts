import { parseFeed, type AtomFeed, type JsonFeed, type RdfFeed, type RssFeed } from "feedsmith";
import type { MediaNs } from "feedsmith";

/**
 * Reads RSS 2.0/0.9x, RSS 1.0 (RDF), Atom and JSON Feed documents with feedsmith and maps
 * each item to one format-neutral shape. Nothing here is sanitized yet: titles and bodies are
 * raw (HTML or text) and URLs may be relative, with the base to resolve them against.
 */

export interface RawItem {
  guid: string | null;
  link: string | null;
  /** Raw title; HTML unless titleIsText. */
  title: string | null;
  titleIsText: boolean;
  /** Short HTML (RSS description, Atom summary). */
  description: string | null;
  /** Full HTML (content:encoded, Atom content). */
  content: string | null;
  /** Date strings, best first. */
  dates: string[];
  /** Image candidates from media, enclosures and podcast art, best first; small = a declared width under 150 px. */
  images: ImageCandidate[];
  /** The URL the item's link resolves against (xml:base, else the document URL). */
  base: string;
  /** An explicit xml:base for the item's HTML, when the document gives one (else the item link is used). */
  contentBase: string | null;
}

export interface ImageCandidate {
  url: string;
  small: boolean;
}

export interface ParsedFeed {
  format: "rss" | "atom" | "rdf" | "json";
  /** Raw title (HTML unless titleIsText). */
  title: string | null;
  titleIsText: boolean;
  items: RawItem[];
}

export class FeedParseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "FeedParseError";
  }
}

export function parseFeedDocument(text: string, documentUrl: string): ParsedFeed {
  const source = text.replace(/^\uFEFF/, "").trimStart();
  if (!source) throw new FeedParseError("The feed is empty");
  let parsed: ReturnType<typeof parseFeed<string>>;
  try {
    parsed = parseFeed<string>(source.startsWith("{") ? JSON.parse(source) : source);
  } catch (err) {
    if (/^<!doctype html|^<html[\s>]/i.test(source)) {
      throw new FeedParseError("The URL returned a web page, not a feed", { cause: err });
    }
    const kind = (err as Error)?.name;
    throw new FeedParseError(
      kind === "MalformedError" ? "The feed is not well-formed XML" : "The response is not an RSS, Atom or RDF feed",
      { cause: err },
    );
  }
  switch (parsed.format) {
    case "rss":
      return fromRss(parsed.feed, documentUrl);
    case "atom":
      return fromAtom(parsed.feed, documentUrl);
    case "rdf":
      return fromRdf(parsed.feed, documentUrl);
    case "json":
      return fromJson(parsed.feed, documentUrl);
  }
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const compact = <T>(values: Array<T | null | undefined | false>): T[] => values.filter((v): v is T => !!v);

function explicitBase(itemBase: string | undefined, feedBase: string | undefined, url: string): string | null {
  if (!itemBase && !feedBase) return null;
  return resolveBase(itemBase, resolveBase(feedBase, url));
}

function resolveBase(base: string | undefined | null, against: string): string {
  if (!base) return against;
  try {
    return new URL(base, against).href;
  } catch {
    return against;
  }
}

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif)(\?|#|$)/i;
const isImageType = (type?: string) => !!type && type.toLowerCase().startsWith("image/");

/** media:content / media:thumbnail / media:group, images only, best first. */
function mediaImages(media: MediaNs.ItemOrFeed | undefined): ImageCandidate[] {
  if (!media) return [];
  const contents = [...(media.contents ?? []), ...(media.groups ?? []).flatMap((g) => g.contents ?? [])];
  const fromContents = contents
    .filter((c) => c.url && (c.medium === "image" || isImageType(c.type) || (!c.medium && !c.type && IMAGE_EXT.test(c.url))))
    .map((c) => candidate(c.url, c.width));
  const thumbs = [
    ...(media.thumbnails ?? []),
    ...contents.flatMap((c) => c.thumbnails ?? []),
    ...(media.groups ?? []).flatMap((g) => g.thumbnails ?? []),
  ].map((t) => candidate(t.url, t.width));
  return compact([...fromContents, ...thumbs]);
}

function candidate(url: string | undefined | null, width?: number): ImageCandidate | null {
  const u = str(url);
  return u ? { url: u, small: typeof width === "number" && width > 0 && width < 150 } : null;
}

function mediaDescription(media: MediaNs.ItemOrFeed | undefined): string | null {
  if (!media) return null;
  const d =
    media.description ?? media.groups?.find((g) => g.description)?.description ?? media.contents?.find((c) => c.description)?.description;
  if (!d?.value) return null;
  return d.type === "html" ? d.value : escapeText(d.value);
}

function mediaTitle(media: MediaNs.ItemOrFeed | undefined): string | null {
  return str(media?.title?.value ?? media?.groups?.find((g) => g.title)?.title?.value);
}

export function escapeText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
}

function fromRss(feed: RssFeed.Feed<string>, url: string): ParsedFeed {
  const feedBase = resolveBase(feed.xml?.base, url);
  return {
    format: "rss",
    title: str(feed.title),
    titleIsText: false,
    items: (feed.items ?? []).map((item): RawItem => {
      const guid = str(item.guid?.value);
      const guidLink = guid && item.guid?.isPermaLink !== false && /^https?:\/\//i.test(guid.trim()) ? guid.trim() : null;
      const atomLink = pickAtomLink(item.atom?.links);
      return {
        guid,
        link: str(item.link) ?? guidLink ?? atomLink,
        title: str(item.title) ?? mediaTitle(item.media),
        titleIsText: false,
        description: str(item.description) ?? str(item.itunes?.summary) ?? mediaDescription(item.media),
        content: str(item.content?.encoded),
        dates: compact([
          str(item.pubDate),
          ...(item.dc?.dates ?? []).map(str),
          str(item.atom?.published),
          str(item.atom?.updated),
          ...(item.dcterms?.issued ?? []).map(str),
          ...(item.dcterms?.created ?? []).map(str),
          ...(item.dcterms?.modified ?? []).map(str),
        ]),
        images: compact([
          ...mediaImages(item.media),
          ...(item.enclosures ?? [])
            .filter((e) => e.url && (isImageType(e.type) || (!e.type && IMAGE_EXT.test(e.url))))
            .map((e) => candidate(e.url)),
          candidate(item.itunes?.image),
        ]),
        base: resolveBase(item.xml?.base, feedBase),
        contentBase: explicitBase(item.xml?.base, feed.xml?.base, url),
      };
    }),
  };
}

function pickAtomLink(links: Array<{ href?: string; rel?: string; type?: string }> | undefined): string | null {
  if (!links?.length) return null;
  const alternates = links.filter((l) => l.href && (!l.rel || l.rel === "alternate"));
  const html = alternates.find((l) => !l.type || /html/i.test(l.type));
  return str(html?.href ?? alternates[0]?.href);
}

function atomText(t: AtomFeed.Text | undefined): { value: string | null; isText: boolean } {
  if (!t?.value) return { value: null, isText: true };
  const type = (t.type ?? "text").toLowerCase();
  return { value: str(t.value), isText: type === "text" || type === "text/plain" };
}

function atomHtml(t: { value?: string; type?: string; src?: string } | undefined): string | null {
  if (!t?.value || t.src) return null;
  const type = (t.type ?? "text").toLowerCase();
  if (type === "html" || type === "xhtml" || type.includes("html")) return str(t.value);
  if (type === "text" || type.startsWith("text/")) return str(t.value) && escapeText(t.value);
  return null;
}

function fromAtom(feed: AtomFeed.Feed<string>, url: string): ParsedFeed {
  const feedBase = resolveBase(feed.xml?.base, url);
  const title = atomText(feed.title);
  return {
    format: "atom",
    title: title.value,
    titleIsText: title.isText,
    items: (feed.entries ?? []).map((entry): RawItem => {
      const t = atomText(entry.title);
      const enclosureImages = (entry.links ?? [])
        .filter((l) => l.rel === "enclosure" && l.href && isImageType(l.type))
        .map((l) => candidate(l.href));
      const id = str(entry.id);
      return {
        guid: id,
        link: pickAtomLink(entry.links) ?? (id && /^https?:\/\//i.test(id.trim()) ? id.trim() : null),
        title: t.value ?? mediaTitle(entry.media),
        titleIsText: t.value ? t.isText : true,
        description: atomHtml(entry.summary) ?? mediaDescription(entry.media),
        content: atomHtml(entry.content),
        dates: compact([
          str(entry.published),
          str(entry.updated),
          ...(entry.dc?.dates ?? []).map(str),
          ...(entry.dcterms?.issued ?? []).map(str),
        ]),
        images: compact([...mediaImages(entry.media), ...enclosureImages, candidate(entry.itunes?.image)]),
        base: resolveBase(entry.xml?.base, feedBase),
        contentBase: explicitBase(entry.xml?.base, feed.xml?.base, url),
      };
    }),
  };
}

function fromRdf(feed: RdfFeed.Feed<string>, url: string): ParsedFeed {
  const feedBase = resolveBase(feed.xml?.base, url);
  return {
    format: "rdf",
    title: str(feed.title),
    titleIsText: false,
    items: (feed.items ?? []).map((item): RawItem => ({
      guid: str(item.rdf?.about) ?? str(item.link),
      link: str(item.link) ?? str(item.rdf?.about),
      title: str(item.title),
      titleIsText: false,
      description: str(item.description) ?? (item.dc?.descriptions?.[0] ? escapeText(item.dc.descriptions[0]) : null),
      content: str(item.content?.encoded),
      dates: compact([
        ...(item.dc?.dates ?? []).map(str),
        ...(item.dcterms?.issued ?? []).map(str),
        ...(item.dcterms?.modified ?? []).map(str),
      ]),
      images: mediaImages(item.media),
      base: resolveBase(item.xml?.base, feedBase),
      contentBase: explicitBase(item.xml?.base, feed.xml?.base, url),
    })),
  };
}

function fromJson(feed: JsonFeed.Feed<string>, url: string): ParsedFeed {
  return {
    format: "json",
    title: str(feed.title),
    titleIsText: true,
    items: (feed.items ?? []).map((item): RawItem => ({
      guid: item.id != null ? str(String(item.id)) : null,
      link: str(item.url) ?? str(item.external_url),
      title: str(item.title),
      titleIsText: true,
      description: str(item.summary) ? escapeText(item.summary!) : null,
      content: str(item.content_html) ?? (str(item.content_text) ? escapeText(item.content_text!) : null),
      dates: compact([str(item.date_published), str(item.date_modified)]),
      images: compact([candidate(item.image), candidate(item.banner_image)]),
      base: url,
      contentBase: null,
    })),
  };
}
