import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ArrowRight, CircleAlert, ExternalLink } from "lucide-react";
import { fetchFeaturedArticles } from "./api-client";
import { categoryLabel } from "./categories";
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
 * The home block 'Latest from Our Knowledge Center': one card per featured category, read from
 * GET /api/featured-articles in the browser (spec: public-side sections 2, 4, 7, 8). Its link
 * leads where the header's does: the knowledge center, or a visitor to the members-only gate.
 */
export function FeaturedArticles({ knowledgeHref }: { knowledgeHref: string }) {
  const [state, setState] = useState<FeaturedState>({ status: "loading" });
  useEffect(() => {
    let live = true;
    fetchFeaturedArticles()
      .then((answer) => live && setState(featuredStateFromAnswer(answer)))
      .catch(() => live && setState(featuredStateFromException()));
    return () => {
      live = false;
    };
  }, []);

  return (
    <section
      aria-labelledby="featured-articles-heading"
      className="border-t border-slate-200 bg-white py-16 sm:py-20"
      data-testid="featured-articles"
    >
      <div className="container-page">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="featured-articles-heading" className="font-serif text-3xl font-bold text-brand-900">
              Latest from Our Knowledge Center
            </h2>
            <p className="mt-2 max-w-2xl text-slate-600">Fresh ideas for improving, decorating and greening your home.</p>
          </div>
          <Link
            to={knowledgeHref}
            className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:text-brand-900 hover:underline"
          >
            Visit the Knowledge Center
            <ArrowRight className="h-4 w-4" aria-hidden />
          </Link>
        </div>

        {state.status === "loaded" && state.error ? (
          <p
            role="alert"
            className="mt-6 flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
          >
            <CircleAlert className="h-5 w-5 shrink-0" aria-hidden />
            {state.error}
          </p>
        ) : null}

        {state.status === "loading" ? (
          <div className="mt-8" aria-busy="true">
            <p role="status" className="sr-only">
              Loading articles...
            </p>
            <ul className="grid grid-cols-1 gap-6 md:grid-cols-3" aria-hidden>
              {[0, 1, 2].map((i) => (
                <li key={i} data-testid="featured-skeleton" className="overflow-hidden rounded-xl border border-slate-200 bg-white">
                  <div className="aspect-[16/9] animate-pulse bg-slate-200" />
                  <div className="space-y-3 p-5">
                    <div className="h-4 w-1/3 animate-pulse rounded bg-slate-200" />
                    <div className="h-5 w-5/6 animate-pulse rounded bg-slate-200" />
                    <div className="h-4 w-full animate-pulse rounded bg-slate-100" />
                    <div className="h-4 w-2/3 animate-pulse rounded bg-slate-100" />
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-3">
            {state.articles.map((item) => (
              <li key={item.id} className="flex">
                <FeaturedCard item={item} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
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
