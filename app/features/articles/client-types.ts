/**
 * The shapes the browser receives from the articles API and loaders (the contract of the
 * articles service; see admin-side section 7 and public-side section 3).
 */

export interface ArticleView {
  id: number;
  title: string;
  summary: string | null;
  content: string | null;
  link: string;
  category: string;
  image_url: string | null;
  published_at: string | null;
  publishDate?: string | null;
  source_name: string | null;
  feedTitle?: string | null;
}

export interface CategoryCount {
  value: string;
  label: string;
  count: number;
}

export interface PaginationView {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface ArticlesPageView {
  articles: ArticleView[];
  pagination: PaginationView;
  categories: CategoryCount[];
}

export interface FeaturedArticle {
  id: number | string;
  category: string;
  title: string;
  excerpt: string | null;
  image_url: string | null;
  external_url: string | null;
  published_at: string | null;
  is_placeholder: boolean;
  is_error: boolean;
}

export interface RssFeed {
  id: number;
  name: string;
  url: string;
  category: string;
  is_active: boolean;
  last_ingested_at: string | null;
  last_error: string | null;
  consecutive_failures: number;
}

export interface FeedInput {
  name: string;
  url: string;
  category: string;
  is_active: boolean;
}

export interface IngestCounts {
  articles: number;
  feeds: number;
  failed: number;
}
