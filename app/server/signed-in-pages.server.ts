import crypto from "node:crypto";
import type { PublicUser } from "~/features/auth/user";
import type { SignedInPageContent } from "~/platform/public-page";

/**
 * Signed-in pages kept rendered per address, role and shape of the user, with the person put in
 * when served (docs/decisions/011-signed-in-pages.md).
 *
 * A page is rendered twice for two stand-in users: the real user's role and flags, each name
 * field a random marker (or null / "" where the real one is), a random id, a random nonce. The
 * first render becomes a template (its text with a slot wherever a marker stood); it is kept
 * only when filling it with the second stand-in's values gives the second render byte for
 * byte, so the page shows these values as they are and nothing derived from them. Serving fills
 * the slots with the signed-in user's values and the request's nonce, each encoded for where
 * it stands: React's HTML escaping, or React Router's hydration data (a turbo-stream string
 * inside a JSON string inside a script).
 */

/** The user's fields a kept page puts in: the strings, then the id. */
const NAME_FIELDS = ["certificate_number", "username", "first_name", "last_name"] as const;
type NameField = (typeof NAME_FIELDS)[number];
/** `content`: a kept frame's own content (decision 013): its HTML where the page shows it, its loader's data in the hydration data. */
export type Slot = NameField | "id" | "nonce" | "content";

/** Every field of PublicUser: a user object with any other is rendered for itself, never from a kept page. */
const USER_FIELDS: ReadonlySet<string> = new Set<keyof PublicUser>([
  "id",
  "certificate_number",
  "username",
  "first_name",
  "last_name",
  "admin",
  "role",
  "is_active",
  "is_core_admin",
]);

/**
 * What of the user a kept page may depend on: role, flags, and for each name field whether it
 * is null, empty or set. Null when this user's page is rendered for them alone: a name with
 * spaces at either end (the welcome line trims the names it joins), or a field this code does
 * not know.
 */
export function userShape(user: PublicUser): string | null {
  if (Object.keys(user).some((field) => !USER_FIELDS.has(field))) return null;
  const parts: string[] = [user.role, user.admin ? "a" : "-", user.is_active ? "A" : "-", user.is_core_admin ? "c" : "-"];
  for (const field of NAME_FIELDS) {
    const value = user[field];
    if (value === null) parts.push("n");
    else if (typeof value !== "string") return null;
    else if (value === "") parts.push("e");
    else if (value.trim() !== value) return null;
    else parts.push("s");
  }
  return parts.join("");
}

/** The values a render was made with, or a request is served with. */
export type SlotValues = Record<Slot, string>;

/** A stand-in for the user: their role and flags, markers where their names are set. */
export interface StandIn {
  user: PublicUser;
  nonce: string;
  values: SlotValues;
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random marker: letters and digits only (nothing any encoder changes), starting with a letter. */
function marker(length: number): string {
  const bytes = crypto.randomBytes(length);
  let text = "";
  for (let i = 0; i < length; i++) text += ALPHABET[i === 0 ? bytes[i] % 52 : bytes[i] % 62];
  return text;
}

/** Ids of stand-ins: 15 digits, never a real user's. */
function markerId(): number {
  return 100_000_000_000_000 + crypto.randomInt(0, 2 ** 48 - 1);
}

/** A stand-in of this user's shape; `length` sets the markers' length (the two renders use two). */
export function standInFor(user: PublicUser, length: number): StandIn {
  const values = { nonce: marker(length), id: String(markerId()), content: marker(length) } as SlotValues;
  const names = {} as Record<NameField, string | null>;
  for (const field of NAME_FIELDS) {
    const real = user[field];
    names[field] = real === null || real === "" ? real : (values[field] = marker(length));
  }
  return {
    user: {
      id: Number(values.id),
      certificate_number: names.certificate_number,
      username: names.username,
      first_name: names.first_name,
      last_name: names.last_name,
      admin: user.admin,
      role: user.role,
      is_active: user.is_active,
      is_core_admin: user.is_core_admin,
    },
    nonce: values.nonce,
    values,
  };
}

/** The values a signed-in user's page is served with; `content`, a kept frame's own content's data (none for other pages). */
export function valuesOf(user: PublicUser, nonce: string, content = ""): SlotValues {
  return {
    content,
    certificate_number: user.certificate_number ?? "",
    username: user.username ?? "",
    first_name: user.first_name ?? "",
    last_name: user.last_name ?? "",
    id: String(user.id),
    nonce,
  };
}

/** React's escaping of text and attribute values (react-dom's escapeTextForBrowser). */
export function escapeHtmlText(value: string): string {
  return value.replace(/["&'<>]/g, (c) => HTML_ESCAPES[c]);
}
const HTML_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };

/**
 * A string value inside React Router's hydration data: turbo-stream writes it as JSON, the
 * chunk is written as a JSON string literal, then escaped for a script (React Router's escapeHtml).
 */
export function escapeHydrationString(value: string): string {
  const inTurboStream = JSON.stringify(value).slice(1, -1);
  const inChunk = JSON.stringify(inTurboStream).slice(1, -1);
  return inChunk.replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]);
}
const SCRIPT_ESCAPES: Record<string, string> = {
  "&": "\\u0026",
  ">": "\\u003e",
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Where a slot stands, which says how its value is written. */
type Context = "html" | "hydration";

export interface Template {
  /** The page's text between the slots: one more than the slots. */
  parts: Buffer[];
  slots: Array<{ slot: Slot; context: Context }>;
  /** The answer's own headers as rendered (Content-Type...). */
  headers: Array<[string, string]>;
  bytes: number;
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/dgi;
const HYDRATION_CHUNK = "window.__reactRouterContext.streamController.enqueue(";

/**
 * The template of a page rendered for `standIn`, or null when a marker stands where its value
 * could not be written back faithfully (an inline script other than the hydration data).
 */
export function templateOf(html: string, standIn: StandIn, headers: Array<[string, string]>): Template | null {
  const scripts: Array<{ start: number; end: number; hydration: boolean }> = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const [start, end] = match.indices![1];
    scripts.push({ start, end, hydration: match[1].startsWith(HYDRATION_CHUNK) });
  }
  const bySlot = new Map<string, Slot>();
  const alternatives: string[] = [];
  for (const [slot, value] of Object.entries(standIn.values) as Array<[Slot, string]>) {
    bySlot.set(value, slot);
    alternatives.push(slot === "id" ? `(?<![0-9])${value}(?![0-9])` : value);
  }
  const found = new RegExp(alternatives.join("|"), "g");
  const parts: Buffer[] = [];
  const slots: Template["slots"] = [];
  let from = 0;
  for (const match of html.matchAll(found)) {
    const at = match.index;
    const script = scripts.find((s) => s.start <= at && at < s.end);
    if (script && !script.hydration) return null;
    parts.push(Buffer.from(html.slice(from, at), "utf8"));
    slots.push({ slot: bySlot.get(match[0])!, context: script ? "hydration" : "html" });
    from = at + match[0].length;
  }
  parts.push(Buffer.from(html.slice(from), "utf8"));
  return { parts, slots, headers, bytes: parts.reduce((n, p) => n + p.length, 0) };
}

/**
 * The page for these values, each encoded for where it stands. `contentHtml`: a kept frame's own
 * content as rendered (HTML, put in as it is where the page shows it); a template with a content
 * slot in its HTML is never filled without it.
 */
export function fillTemplate(template: Template, values: SlotValues, contentHtml?: string): Buffer {
  const pieces: Buffer[] = [template.parts[0]];
  const encoded = new Map<string, Buffer>();
  template.slots.forEach(({ slot, context }, i) => {
    const key = `${context}:${slot}`;
    let piece = encoded.get(key);
    if (!piece) {
      const value = values[slot];
      let text: string;
      if (slot === "content" && context === "html") {
        if (contentHtml === undefined) throw new Error("a frame's content was not rendered");
        text = contentHtml;
      } else text = slot === "id" || slot === "nonce" ? value : context === "html" ? escapeHtmlText(value) : escapeHydrationString(value);
      encoded.set(key, (piece = Buffer.from(text, "utf8")));
    }
    pieces.push(piece, template.parts[i + 1]);
  });
  return Buffer.concat(pieces);
}

/**
 * A page rendered for a stand-in: its HTML and headers when a plain 200 page, else null.
 * `content`: a kept frame's own content's data to render it with (else the stand-in's marker).
 */
export type StandInRender = (standIn: StandIn, content?: string) => Promise<{ html: string; headers: Array<[string, string]> } | null>;

/**
 * A kept frame's own content for the user asking (decision 013): its loader's data, and the
 * HTML rendered from it alone.
 */
export interface FrameContent {
  data: string;
  /** Rendered for a stand-in (the frame's check), or null: for the user asking. */
  render: (standIn: StandIn | null) => string;
}

/**
 * Renders the page for two stand-ins and keeps the template of the first when it gives the
 * second exactly; null when the page is not kept (not a plain 200 page, or it shows something
 * derived from the user rather than the values themselves). A frame (`content` given) is kept
 * only when, moreover, the page rendered whole for the second stand-in with this content's
 * data is the template filled with the content rendered alone: the content renders the same
 * outside React Router's tree as inside it.
 */
export async function renderTemplate(user: PublicUser, render: StandInRender, content?: FrameContent): Promise<Template | null> {
  const first = standInFor(user, 20);
  const second = standInFor(user, 27);
  const a = await render(first);
  if (!a) return null;
  const template = templateOf(a.html, first, a.headers);
  if (!template) return null;
  const hasContent = template.slots.some((s) => s.slot === "content");
  if (hasContent !== (content !== undefined)) return null;
  const b = await render(second);
  if (!b || fillTemplate(template, second.values, second.values.content).toString("utf8") !== b.html) return null;
  if (content) {
    const whole = await render(second, content.data);
    const values = { ...second.values, content: content.data };
    if (!whole || fillTemplate(template, values, content.render(second)).toString("utf8") !== whole.html) return null;
  }
  return template;
}

/** A kept template, a page refused (null), or a page asked for once ("seen"). */
const templateBytes = (kept: Kept) => (kept.template && kept.template !== "seen" ? kept.template.bytes : 0);
type Kept = { template: Template | null | "seen"; storedAt: number };

/**
 * The kept templates, keyed by content version, address and user shape; the least recently
 * used dropped beyond `maxPages` or `maxBytes`; each rendered again after `ttlMs`. The
 * content's version is read from the database for every answer (one indexed read: the
 * articles' counter, or the census's counts), so a page shows every write that finished
 * before it was asked for, on any instance, as a page rendered for the request would.
 */
export class SignedInPages {
  private readonly pages = new Map<string, Kept>();
  private readonly rendering = new Map<string, Promise<Template | null>>();
  private readonly versionsSeen = new Map<SignedInPageContent, string>();
  private readonly opts: { maxPages: number; maxBytes: number; ttlMs: number; now: () => number };
  private bytes = 0;
  /** Answers from a kept template, renders of one, and requests rendered for the user alone (GET /metrics). */
  readonly lookups = { kept: 0, rendered: 0, notKept: 0 };

  constructor(
    private readonly versions: Record<SignedInPageContent, () => Promise<string>>,
    opts: { maxPages?: number; maxBytes?: number; ttlMs?: number; now?: () => number } = {},
  ) {
    this.opts = { maxPages: 500, maxBytes: 32 * 1024 * 1024, ttlMs: 60_000, now: Date.now, ...opts };
  }

  /** The content's current version; the pages kept at another are dropped when it moves. A page that shows no shared content (null: the 404 page) has one version. */
  private async version(content: SignedInPageContent | null): Promise<string> {
    if (content === null) return "-";
    const version = await this.versions[content]();
    const seen = this.versionsSeen.get(content);
    if (seen !== version) {
      if (seen !== undefined) this.dropContent(content);
      this.versionsSeen.set(content, version);
    }
    return version;
  }

  /**
   * The template for this user's shape at this address, rendering it when none is kept; null
   * when this page is not kept (the request is rendered for the user alone).
   */
  async template(
    content: SignedInPageContent | null,
    key: string,
    user: PublicUser,
    render: StandInRender,
    frame?: () => Promise<FrameContent>,
  ): Promise<Template | null> {
    const fullKey = `${content}@${await this.version(content)}|${key}`;
    const kept = this.pages.get(fullKey);
    if (kept && kept.template !== "seen" && this.opts.now() - kept.storedAt < this.opts.ttlMs) {
      this.pages.delete(fullKey);
      this.pages.set(fullKey, kept);
      if (kept.template) this.lookups.kept++;
      else this.lookups.notKept++;
      return kept.template;
    }
    // Asked for the first time: rendered for this user alone, one render as before. Making a
    // template takes two, worth it from the second ask on; an address asked for once (a
    // crawler's, an attacker's walk through page numbers) never costs more than it did.
    if (!kept && !this.rendering.has(fullKey)) {
      this.set(fullKey, { template: "seen", storedAt: this.opts.now() });
      this.lookups.notKept++;
      return null;
    }
    let pending = this.rendering.get(fullKey);
    if (!pending) {
      this.lookups.rendered++;
      pending = (frame ? frame() : Promise.resolve(undefined))
        .then((own) => renderTemplate(user, render, own))
        .then(
          (template) => {
            this.set(fullKey, { template, storedAt: this.opts.now() });
            return template;
          },
          // A render that failed is not remembered: this request is rendered for the user alone, the next tries again.
          () => null,
        )
        .finally(() => this.rendering.delete(fullKey));
      this.rendering.set(fullKey, pending);
    }
    const template = await pending;
    if (!template) this.lookups.notKept++;
    return template;
  }

  private set(key: string, kept: Kept) {
    this.drop(key);
    this.pages.set(key, kept);
    this.bytes += templateBytes(kept);
    while (this.pages.size > this.opts.maxPages || (this.bytes > this.opts.maxBytes && this.pages.size > 0)) {
      this.drop(this.pages.keys().next().value!);
    }
  }

  private drop(key: string) {
    const kept = this.pages.get(key);
    if (!kept) return;
    this.pages.delete(key);
    this.bytes -= templateBytes(kept);
  }

  private dropContent(content: SignedInPageContent) {
    for (const key of [...this.pages.keys()]) if (key.startsWith(`${content}@`)) this.drop(key);
  }
}
