/** Article categories (spec: public-side section 3), their labels and the admin's option groups. */

export const CATEGORY_GROUPS = [
  { label: "Home & Living", values: ["home_improvement", "home_remodeling", "decor", "maintenance_repair"] },
  { label: "Safety & Security", values: ["home_security", "safety", "insurance"] },
  { label: "Sustainability", values: ["energy_saving_tips", "green_design", "greening_tips"] },
  { label: "Technology", values: ["smart_home_tech"] },
  { label: "News & Information", values: ["homeowners_news", "housing_mortgage_trends", "top_story", "news", "general"] },
  { label: "Legacy", values: ["home_maintenance"] },
] as const;

export type ArticleCategory = (typeof CATEGORY_GROUPS)[number]["values"][number];

export const CATEGORY_LABELS: Record<ArticleCategory, string> = {
  home_improvement: "Home Improvement",
  home_remodeling: "Home Remodeling",
  decor: "Decor",
  maintenance_repair: "Maintenance and Repair",
  home_security: "Home Security",
  safety: "Safety",
  insurance: "Insurance",
  energy_saving_tips: "Energy Saving Tips",
  green_design: "Green Design",
  greening_tips: "Greening Tips",
  smart_home_tech: "Smart Home Tech",
  homeowners_news: "Homeowners News",
  housing_mortgage_trends: "Housing and Mortgage Trends",
  top_story: "Top Story",
  news: "News",
  general: "General",
  home_maintenance: "Home Maintenance",
};

/** All 17 values, in group order. */
export const ARTICLE_CATEGORIES = CATEGORY_GROUPS.flatMap((g) => g.values) as ArticleCategory[];
export const DEFAULT_CATEGORY: ArticleCategory = "general";

export function isArticleCategory(value: unknown): value is ArticleCategory {
  return typeof value === "string" && (ARTICLE_CATEGORIES as string[]).includes(value);
}

export function categoryLabel(value: string): string {
  return isArticleCategory(value) ? CATEGORY_LABELS[value] : value;
}

/**
 * The home page's three featured slots (spec: Home Improvement, Decor, Green Living), each
 * filled by the newest article of these categories.
 */
export const FEATURED_SLOTS = [
  { key: "home_improvement", title: "Home Improvement", categories: ["home_improvement", "home_remodeling", "maintenance_repair"] },
  { key: "decor", title: "Decor", categories: ["decor"] },
  { key: "green_living", title: "Green Living", categories: ["greening_tips", "green_design", "energy_saving_tips"] },
] as const satisfies ReadonlyArray<{ key: string; title: string; categories: readonly ArticleCategory[] }>;
