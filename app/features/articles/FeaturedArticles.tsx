import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ArrowRight, CircleAlert } from "lucide-react";
import type { FeaturedCards, loadFeatured } from "./FeaturedCards";

/**
 * What the block says when its code could not be fetched: featured.ts's FEATURED_LOAD_FAILED
 * (featured.test.ts checks they agree). Importing it would put a module shared with the cards'
 * chunk into this page's, and the page would load one more file for it.
 */
export const CARDS_FAILED = "Failed to load articles";

type Loaded = { Cards: typeof FeaturedCards; state: Awaited<ReturnType<typeof loadFeatured>> };

/**
 * The home block 'Latest from Our Knowledge Center': one card per featured category, read from
 * GET /api/featured-articles in the browser (spec: public-side sections 2, 4, 7, 8). Its link
 * leads where the header's does: the knowledge center, or a visitor to the members-only gate.
 *
 * The page arrives with the block's frame and its loading cards; the cards' code
 * (FeaturedCards.tsx) and the articles are fetched once the page has loaded, so they are not
 * part of the home page's first-load JavaScript. If that code cannot be fetched (offline, or a
 * new version of the site deployed meanwhile), the block says the articles failed to load.
 */
export function FeaturedArticles({ knowledgeHref }: { knowledgeHref: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("./FeaturedCards")
      .then(({ FeaturedCards, loadFeatured }) => loadFeatured().then((state) => live && setLoaded({ Cards: FeaturedCards, state })))
      .catch(() => live && setFailed(true));
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

        {loaded ? (
          <loaded.Cards state={loaded.state} />
        ) : failed ? (
          <p
            role="alert"
            className="mt-6 flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
          >
            <CircleAlert className="h-5 w-5 shrink-0" aria-hidden />
            {CARDS_FAILED}
          </p>
        ) : (
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
        )}
      </div>
    </section>
  );
}
