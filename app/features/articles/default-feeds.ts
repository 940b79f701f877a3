import type { ArticleCategory } from "~/domain/article-categories";

/**
 * Seeded once, on the first start, so the admin panel is never empty. They start inactive: a
 * super_admin reviews and enables them. Real, long-running homeowner and home-improvement feeds.
 */
export const DEFAULT_FEEDS: ReadonlyArray<{ name: string; url: string; category: ArticleCategory }> = [
  { name: "Family Handyman", url: "https://www.familyhandyman.com/feed/", category: "home_improvement" },
  { name: "Bob Vila", url: "https://www.bobvila.com/feed", category: "maintenance_repair" },
  { name: "Fine Homebuilding", url: "https://www.finehomebuilding.com/feed", category: "home_remodeling" },
  { name: "Young House Love", url: "https://www.younghouselove.com/feed/", category: "decor" },
  { name: "Apartment Therapy", url: "https://www.apartmenttherapy.com/main.rss", category: "decor" },
  { name: "Inhabitat", url: "https://inhabitat.com/feed/", category: "green_design" },
  { name: "HousingWire", url: "https://www.housingwire.com/feed/", category: "housing_mortgage_trends" },
];
