import { formatDay } from "~/platform/dates";
import { ExternalLink, Rss } from "lucide-react";
import { categoryLabel } from "~/domain/article-categories";
import { CategoryFallbackImage } from "./CategoryIcon";
import type { ArticleCardView } from "./cards";
import { useImageFallback } from "./useImageFallback";

/**
 * One knowledge center card: image (hidden when it fails, replaced by the category's generated
 * image), category badge, publish date, title, text, feed title and 'Read More' in a new tab.
 */
export function ArticleCard({ article }: { article: ArticleCardView }) {
  const image = useImageFallback(article.imageUrl ? [article.imageUrl] : []);
  // The same on the server and in every browser (UTC), e.g. "May 1, 2024".
  const date = formatDay(article.publishedAt, "UTC");
  const titleId = `article-${article.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="article-card"
      className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
    >
      <div className="aspect-[16/9] overflow-hidden bg-slate-100">
        {image.src ? (
          <img
            ref={image.ref}
            src={image.src}
            onError={image.onError}
            alt=""
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            className="h-full w-full object-cover"
          />
        ) : (
          <CategoryFallbackImage category={article.category} className="h-full w-full" />
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
          <span className="rounded-full bg-brand-50 px-2.5 py-1 font-semibold text-brand-800">{categoryLabel(article.category)}</span>
          {date ? (
            <time dateTime={article.publishedAt ?? undefined} className="text-slate-600">
              {date}
            </time>
          ) : null}
        </div>
        <h3 id={titleId} className="mt-3 text-lg font-semibold leading-snug text-brand-900">
          {article.title}
        </h3>
        <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-700">{article.excerpt}</p>
        <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
          <span className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600">
            {article.source ? (
              <>
                <Rss className="h-3.5 w-3.5 shrink-0" aria-hidden />
                <span className="truncate" data-testid="article-source">
                  {article.source}
                </span>
              </>
            ) : null}
          </span>
          {article.link ? (
            <a
              href={article.link}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex shrink-0 items-center gap-1 rounded text-sm font-semibold text-brand-700 hover:text-brand-900 hover:underline"
            >
              Read More
              <ExternalLink className="h-3.5 w-3.5" aria-hidden />
              <span className="sr-only">: {article.title} (opens in a new tab)</span>
            </a>
          ) : null}
        </div>
      </div>
    </article>
  );
}
