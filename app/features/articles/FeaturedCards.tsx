import { CircleAlert, ExternalLink } from "lucide-react";
import { fetchFeaturedArticles } from "./api-client";
import { categoryLabel } from "~/domain/article-categories";
import { CategoryIcon } from "./CategoryIcon";
import type { FeaturedArticle } from "./contract";
import {
  featuredButton,
  featuredExcerpt,
  featuredImageCandidates,
  featuredSlotOf,
  featuredStateFromAnswer,
  featuredStateFromException,
  featuredTitle,
  type FeaturedState,
} from "./featured";
import { useImageFallback } from "./useImageFallback";

/**
 * The home block's cards and what fills them (GET /api/featured-articles), fetched by
 * FeaturedArticles after the page has loaded: the block is below the fold, so its code (the
 * cards, the category icons, the API client) is not part of the home page's first load.
 */

/** What the block shows: the articles, or the fallback cards and the message of a failure. */
export function loadFeatured(): Promise<Exclude<FeaturedState, { status: "loading" }>> {
  return fetchFeaturedArticles().then(
    (answer) => featuredStateFromAnswer(answer) as Exclude<FeaturedState, { status: "loading" }>,
    () => featuredStateFromException() as Exclude<FeaturedState, { status: "loading" }>,
  );
}

export function FeaturedCards({ state }: { state: Exclude<FeaturedState, { status: "loading" }> }) {
  return (
    <>
      {state.status === "loaded" && state.error ? (
        <p role="alert" className="mt-6 flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          <CircleAlert className="h-5 w-5 shrink-0" aria-hidden />
          {state.error}
        </p>
      ) : null}
      <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-3">
        {state.articles.map((item) => (
          <li key={item.id} className="flex">
            <FeaturedCard item={item} />
          </li>
        ))}
      </ul>
    </>
  );
}

function FeaturedCard({ item }: { item: FeaturedArticle }) {
  const image = useImageFallback(featuredImageCandidates(item));
  const button = featuredButton(item);
  const slot = featuredSlotOf(item.category);
  const label = slot?.title ?? categoryLabel(item.category);
  const title = featuredTitle(item);
  const titleId = `featured-${item.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="featured-card"
      className="flex w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="relative aspect-[16/9] overflow-hidden bg-slate-200">
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
        ) : null}
        {item.is_error ? (
          <div className="absolute inset-0 flex items-center justify-center bg-slate-900/65">
            <span className="rounded-full bg-white/95 px-4 py-1.5 text-sm font-semibold text-slate-900 shadow">
              Temporarily Unavailable
            </span>
          </div>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <p className="flex items-center gap-2 text-sm font-semibold text-brand-700">
          <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-50">
            <CategoryIcon category={item.category} className="h-4 w-4" />
          </span>
          {label}
        </p>
        <h3
          id={titleId}
          className="mt-3 text-lg font-semibold leading-snug text-brand-900"
          title={title !== item.title ? item.title : undefined}
        >
          {title}
        </h3>
        <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-700">{featuredExcerpt(item)}</p>
        <div className="mt-5">
          {button.kind === "read-more" ? (
            <a href={button.href} target="_blank" rel="noopener noreferrer" className="btn-primary w-full sm:w-auto">
              Read More
              <ExternalLink className="h-4 w-4" aria-hidden />
              <span className="sr-only">: {title} (opens in a new tab)</span>
            </a>
          ) : (
            <button type="button" disabled className="btn w-full border border-slate-300 bg-slate-100 text-slate-600 sm:w-auto">
              {button.label}
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
