import { recordIdSchema } from "~/platform/ids";
import { z } from "~/platform/zod";
import { ARTICLE_CATEGORIES, type ArticleCategory } from "~/domain/article-categories";
import { isOneLine, stripControlChars } from "~/platform/text-fields";

/**
 * What crosses the wire for video tutorials, shared by the API and the browser.
 *
 * Members (any signed-in user):
 *   GET  /api/videos/categories        -> { success, categories: VideoCategoryCount[] }
 *   GET  /api/videos?category=<value>  -> { success, videos: VideoJson[] }
 * super_admin:
 *   POST   /api/videos                 VideoInput              -> 201 { success, video }
 *   PUT    /api/videos/:id             VideoInput              -> { success, video }
 *   DELETE /api/videos/:id                                     -> { success }
 *   PUT    /api/videos/order           { category, ids }       -> { success, videos }
 * Errors: { success: false, error, details? } with 400, 401, 403, 404 or 409.
 */

export const VIDEO_TITLE_MAX = 200;
export const VIDEO_DESCRIPTION_MAX = 2000;
export const YOUTUBE_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;
const DURATION_PATTERN = /^(?:\d{1,2}:)?[0-5]?\d:[0-5]\d$/;

export const VIDEO_MESSAGES = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be at most ${VIDEO_TITLE_MAX} characters`,
  titleControl: "Title must be a single line of text",
  descriptionTooLong: `Description must be at most ${VIDEO_DESCRIPTION_MAX} characters`,
  youtubeRequired: "YouTube video ID or URL is required",
  youtubeInvalid: "Enter a YouTube video ID (11 letters, digits, - or _) or a YouTube video URL",
  categoryInvalid: "Category must be one of the article categories",
  durationInvalid: "Duration must look like 4:05 or 1:02:30",
  idInvalid: "Video id must be a positive whole number",
  orderIds: "ids must list every video of the category once",
  notFound: "Video not found",
  bodyNotObject: "The request body must be a JSON object",
  duplicate: "This video is already in this category",
} as const;

/** The 11-character ID from an ID or from a YouTube watch, short, embed or shorts URL; null if none. */
export function parseYoutubeId(input: string): string | null {
  const value = input.trim();
  if (YOUTUBE_ID_PATTERN.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, "");
  let candidate: string | null = null;
  if (host === "youtu.be") candidate = url.pathname.split("/")[1] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (url.pathname === "/watch") candidate = url.searchParams.get("v");
    else {
      const m = /^\/(?:embed|shorts|live|v)\/([^/]+)/.exec(url.pathname);
      candidate = m ? m[1] : null;
    }
  }
  return candidate && YOUTUBE_ID_PATTERN.test(candidate) ? candidate : null;
}

const categorySchema = z.enum(ARTICLE_CATEGORIES as [ArticleCategory, ...ArticleCategory[]], { error: VIDEO_MESSAGES.categoryInvalid });

export const videoInputSchema = z.object(
  {
    title: z
      .string({ error: VIDEO_MESSAGES.titleRequired })
      .trim()
      .min(1, VIDEO_MESSAGES.titleRequired)
      .max(VIDEO_TITLE_MAX, VIDEO_MESSAGES.titleTooLong)
      .refine(isOneLine, VIDEO_MESSAGES.titleControl),
    description: z
      .string({ error: VIDEO_MESSAGES.descriptionTooLong })
      .trim()
      .max(VIDEO_DESCRIPTION_MAX, VIDEO_MESSAGES.descriptionTooLong)
      .transform((s) => stripControlChars(s, { keepLineBreaks: true }))
      .default(""),
    youtube: z
      .string({ error: VIDEO_MESSAGES.youtubeRequired })
      .trim()
      .min(1, VIDEO_MESSAGES.youtubeRequired)
      .max(500, VIDEO_MESSAGES.youtubeInvalid)
      .refine((v) => parseYoutubeId(v) !== null, VIDEO_MESSAGES.youtubeInvalid)
      .transform((v) => parseYoutubeId(v)!),
    category: categorySchema,
    duration: z
      .string({ error: VIDEO_MESSAGES.durationInvalid })
      .trim()
      .refine((v) => v === "" || DURATION_PATTERN.test(v), VIDEO_MESSAGES.durationInvalid)
      .transform((v) => v || null)
      .nullish()
      .transform((v) => v ?? null),
  },
  { error: VIDEO_MESSAGES.bodyNotObject },
);
export type VideoInput = z.input<typeof videoInputSchema>;
export type VideoInputData = z.output<typeof videoInputSchema>;

/** Ids are 32-bit on PostgreSQL: a larger number is refused before it reaches the query. */
export const videoIdSchema = recordIdSchema(VIDEO_MESSAGES.idInvalid);

export const videoOrderSchema = z.object(
  {
    category: categorySchema,
    ids: z.array(videoIdSchema, { error: VIDEO_MESSAGES.orderIds }).max(1000, VIDEO_MESSAGES.orderIds),
  },
  { error: VIDEO_MESSAGES.bodyNotObject },
);
export type VideoOrderInput = z.infer<typeof videoOrderSchema>;

export const videoListQuerySchema = z.object({ category: categorySchema.optional() });

/** A video as the API answers it (spec: public-side section 3: id, title, description, url, embedUrl, duration). */
export interface VideoJson {
  id: number;
  category: string;
  title: string;
  description: string;
  youtube_id: string;
  url: string;
  embedUrl: string;
  duration: string | null;
  sort_order: number;
}

export interface VideoCategoryCount {
  value: string;
  label: string;
  count: number;
}

export const watchUrl = (youtubeId: string) => `https://www.youtube.com/watch?v=${youtubeId}`;
/** The privacy-enhanced player: no cookies until the visitor plays the video. */
export const embedUrl = (youtubeId: string) => `https://www.youtube-nocookie.com/embed/${youtubeId}`;
export const thumbnailUrl = (youtubeId: string, quality: "maxresdefault" | "hqdefault") =>
  `https://i.ytimg.com/vi/${youtubeId}/${quality}.jpg`;
