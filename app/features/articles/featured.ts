/** Rules of the home block 'Latest from Our Knowledge Center' (spec: public-side sections 2, 8, 9). */
import { FEATURED_SLOTS } from "~/domain/article-categories";
import { httpUrl } from "./cards";
import type { FeaturedArticle } from "./contract";
import { truncate } from "./truncate";

export const FEATURED_TITLE_MAX = 80;
export const FEATURED_EXCERPT_MAX = 120;
export const NO_DESCRIPTION = "No description available.";
export const FEATURED_LOAD_FAILED = "Failed to load articles";
export const TECHNICAL_DIFFICULTIES = "We're experiencing technical difficulties. Please try again later.";

/** Served by the site from public/images/articles (never hot-linked). */
export const FEATURED_PLACEHOLDER_IMAGE = "/images/articles/placeholder.svg";
const SLOT_DEFAULT_IMAGES: Record<FeaturedSlotKey, string> = {
  home_improvement: "/images/articles/home-improvement.svg",
  decor: "/images/articles/decor.svg",
  green_living: "/images/articles/green-living.svg",
};

export type FeaturedSlotKey = (typeof FEATURED_SLOTS)[number]["key"];

/** The featured slot a category belongs to: a slot key itself, or one of the slot's article categories. */
export function featuredSlotOf(category: string | null | undefined): (typeof FEATURED_SLOTS)[number] | null {
  if (!category) return null;
  return FEATURED_SLOTS.find((s) => s.key === category || (s.categories as readonly string[]).includes(category)) ?? null;
}

export type FeaturedButton =
  | { kind: "read-more"; label: "Read More"; href: string }
  | { kind: "coming-soon"; label: "Coming Soon" }
  | { kind: "unavailable"; label: "Unavailable" };

/**
 * 'Read More' opens the article; a placeholder item, or one whose link is '#' (or missing),
 * gets a disabled 'Coming Soon'; an error item a disabled 'Unavailable'.
 */
export function featuredButton(item: Pick<FeaturedArticle, "is_error" | "is_placeholder" | "external_url">): FeaturedButton {
  if (item.is_error) return { kind: "unavailable", label: "Unavailable" };
  const href = item.external_url?.trim() ?? "";
  if (item.is_placeholder || !href || href === "#" || !/^https?:\/\//i.test(href)) return { kind: "coming-soon", label: "Coming Soon" };
  return { kind: "read-more", label: "Read More", href };
}

/**
 * The images to try in order: the item's own, the category default, then the placeholder.
 * Duplicates, empty values and addresses that are not http(s) (a feed's javascript: or data:) are left out.
 */
export function featuredImageCandidates(item: Pick<FeaturedArticle, "image_url" | "category">): string[] {
  const slot = featuredSlotOf(item.category);
  const list = [httpUrl(item.image_url), slot ? SLOT_DEFAULT_IMAGES[slot.key] : null, FEATURED_PLACEHOLDER_IMAGE];
  return list.filter((src, i): src is string => !!src && list.indexOf(src) === i);
}

export function featuredTitle(item: Pick<FeaturedArticle, "title">): string {
  return truncate(item.title, FEATURED_TITLE_MAX);
}

export function featuredExcerpt(item: Pick<FeaturedArticle, "excerpt">): string {
  return truncate(item.excerpt, FEATURED_EXCERPT_MAX) || NO_DESCRIPTION;
}

/** The three cards shown when loading failed with an exception (spec: public-side section 8). */
export function fallbackFeaturedArticles(): FeaturedArticle[] {
  return FEATURED_SLOTS.map((slot) => ({
    id: `fallback-${slot.key}`,
    category: slot.key,
    title: `${slot.title} Temporarily Unavailable`,
    excerpt: TECHNICAL_DIFFICULTIES,
    image_url: null,
    external_url: "#",
    published_at: null,
    is_placeholder: false,
    is_error: true,
  }));
}

export type FeaturedState =
  | { status: "loading" }
  | { status: "loaded"; articles: FeaturedArticle[]; error: string | null }
  | { status: "failed"; articles: FeaturedArticle[] };

/**
 * What the block shows for an answer: a server error shows its text (or 'Failed to load
 * articles') and still uses any articles returned; with none returned it shows the fallback
 * cards under the message, so the block is never empty.
 */
export function featuredStateFromAnswer(answer: { success: boolean; articles: FeaturedArticle[]; error: string | null }): FeaturedState {
  if (answer.success) return { status: "loaded", articles: answer.articles, error: null };
  const articles = answer.articles.length ? answer.articles : fallbackFeaturedArticles();
  return { status: "loaded", articles, error: answer.error || FEATURED_LOAD_FAILED };
}

export function featuredStateFromException(): FeaturedState {
  return { status: "failed", articles: fallbackFeaturedArticles() };
}
