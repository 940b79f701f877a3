import { z } from "zod";
import { oneLineString } from "~/platform/text-fields";
import { ARTICLE_CATEGORIES, DEFAULT_CATEGORY, type ArticleCategory } from "./categories";

/** The add/edit feed form, checked the same way by the admin dialog and by the API. */

export const FEED_NAME_MAX = 200;
export const FEED_URL_MAX = 2000;

export const FEED_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${FEED_NAME_MAX} characters`,
  urlRequired: "URL is required",
  urlInvalid: "URL must be an http or https address",
  urlTooLong: `URL must be at most ${FEED_URL_MAX} characters`,
  categoryInvalid: "Category must be one of the article categories",
  activeInvalid: "is_active must be true or false",
} as const;

/** An absolute http(s) URL, or null. Credentials in the URL are refused (they would end up in logs). */
export function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname || url.username || url.password) return null;
  return url;
}

const boolish = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal("true"), z.literal("false")], { error: FEED_MESSAGES.activeInvalid })
  .transform((v) => v === true || v === 1 || v === "true");

export const feedInputSchema = z.object({
  name: oneLineString("Name", FEED_MESSAGES.nameRequired)
    .trim()
    .min(1, FEED_MESSAGES.nameRequired)
    .max(FEED_NAME_MAX, FEED_MESSAGES.nameTooLong),
  // Checked before URL parsing, which would quietly drop a tab or newline inside the address.
  url: oneLineString("URL", FEED_MESSAGES.urlRequired)
    .trim()
    .min(1, FEED_MESSAGES.urlRequired)
    .max(FEED_URL_MAX, FEED_MESSAGES.urlTooLong)
    .refine((v) => parseHttpUrl(v) !== null, FEED_MESSAGES.urlInvalid)
    .transform((v) => parseHttpUrl(v)!.href),
  category: z
    .enum(ARTICLE_CATEGORIES as [ArticleCategory, ...ArticleCategory[]], { error: FEED_MESSAGES.categoryInvalid })
    .default(DEFAULT_CATEGORY),
  is_active: boolish.default(true),
});

export type FeedInputData = z.infer<typeof feedInputSchema>;

export const feedUpdateSchema = feedInputSchema.extend({
  id: z.coerce.number({ error: "Feed id is required" }).int("Feed id is required").positive("Feed id is required"),
});
export type FeedUpdateData = z.infer<typeof feedUpdateSchema>;
