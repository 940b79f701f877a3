/** The knowledge center's view of one article and of one listing page, shared by server loader and browser. */
import { categoryLabel, isArticleCategory, type ArticleCategory } from "~/domain/article-categories";
import type { ArticleJson, ArticlesPage, CategoryCount, Pagination } from "./contract";
import { cardSummary } from "./truncate";

export interface ArticleCardView {
  id: number;
  title: string;
  /** http(s) link of the article, or null when the stored one is unusable. */
  link: string | null;
  category: string;
  imageUrl: string | null;
  publishedAt: string | null;
  source: string | null;
  /** Summary, else content as text, cut to 150 characters followed by '...'. */
  excerpt: string;
}

/** An http(s) address as stored, trimmed; anything else (javascript:, data:, relative) is null. */
export const httpUrl = (value: string | null | undefined) => (value && /^https?:\/\//i.test(value.trim()) ? value.trim() : null);

export function toArticleCard(article: ArticleJson): ArticleCardView {
  return {
    id: article.id,
    title: article.title?.trim() || "Untitled article",
    link: httpUrl(article.link),
    category: article.category,
    imageUrl: httpUrl(article.image_url),
    publishedAt: article.published_at ?? article.publishDate ?? null,
    source: article.feedTitle?.trim() || article.source_name?.trim() || null,
    excerpt: cardSummary(article),
  };
}

export interface KnowledgeCenterPage {
  articles: ArticleCardView[];
  pagination: Pagination;
  categories: CategoryCount[];
}

export function toKnowledgeCenterPage(answer: ArticlesPage): KnowledgeCenterPage {
  return {
    articles: answer.articles.map(toArticleCard),
    pagination: answer.pagination,
    categories: answer.categories,
  };
}

/** The category of the URL, when it is one of the 17; anything else means "all categories". */
export function categoryParam(value: string | null | undefined): ArticleCategory | null {
  return isArticleCategory(value) ? value : null;
}

/**
 * The dropdown options: 'All Categories (n)' then each category that has articles with its
 * count. A selected category without articles is kept (with 0) so the control shows the URL's state.
 */
export function categoryOptions(categories: CategoryCount[], selected: string | null): { value: string; label: string }[] {
  const withArticles = categories.filter((c) => c.count > 0);
  const total = withArticles.reduce((sum, c) => sum + c.count, 0);
  const options = [{ value: "", label: `All Categories (${total})` }];
  for (const c of withArticles) options.push({ value: c.value, label: `${c.label || categoryLabel(c.value)} (${c.count})` });
  if (selected && !withArticles.some((c) => c.value === selected))
    options.push({ value: selected, label: `${categoryLabel(selected)} (0)` });
  return options;
}
