import { useState, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigate, useNavigation, useRevalidator } from "react-router";
import { CircleAlert, CircleCheck, Inbox, LoaderCircle, RefreshCw, X } from "lucide-react";
import { PageHero } from "~/components/PageHero";
import { rssApi } from "./api-client";
import { ArticleCard } from "./ArticleCard";
import { categoryOptions, type KnowledgeCenterPage } from "./cards";
import { categoryLabel } from "~/domain/article-categories";
import { KnowledgeTools } from "./KnowledgeTools";
import { Pagination, scrollToSection } from "./Pagination";
import { knowledgeCenterSearch, pageRange } from "./pagination";
import { LOAD_FAILED, REFRESH_FAILED, refreshMessage } from "./refresh";
import { useHydrated } from "~/components/useHydrated";

export const ARTICLES_SECTION_ID = "articles";

export type KnowledgeCenterData =
  { status: "ok"; category: string | null; page: KnowledgeCenterPage } | { status: "error"; category: string | null };

type Notice = { kind: "success" | "error"; text: string };

/** Refresh: ingest the feeds (POST /api/rss/ingest), say what happened, then reload the articles. */
function useRefresh() {
  const revalidator = useRevalidator();
  const [refreshing, setRefreshing] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  async function refresh() {
    setRefreshing(true);
    setNotice(null);
    try {
      setNotice({ kind: "success", text: refreshMessage(await rssApi.ingest()) });
      await revalidator.revalidate();
    } catch {
      setNotice({ kind: "error", text: REFRESH_FAILED });
    } finally {
      setRefreshing(false);
    }
  }
  return { refreshing, notice, refresh, dismiss: () => setNotice(null) };
}

/** The members' knowledge center (spec: public-side section 2, Knowledge center). */
export function KnowledgeCenter({ data }: { data: KnowledgeCenterData }) {
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const { refreshing, notice, refresh, dismiss } = useRefresh();
  const category = data.category;
  const hrefFor = (page: number, cat: string | null = category) => `${location.pathname}${knowledgeCenterSearch({ category: cat, page })}`;
  const loading =
    (navigation.state === "loading" && navigation.location?.pathname === location.pathname) ||
    revalidator.state === "loading" ||
    refreshing;

  const options = data.status === "ok" ? categoryOptions(data.page.categories, category) : categoryOptions([], category);

  let body: ReactNode;
  if (data.status === "error") {
    body = <LoadError retryHref={`${location.pathname}${location.search}`} />;
  } else if (data.page.articles.length === 0) {
    body = (
      <EmptyState category={category} showAllHref={location.pathname} onRefresh={refresh} refreshing={refreshing} hydrated={hydrated} />
    );
  } else {
    const { page, limit, total, totalPages } = data.page.pagination;
    const { from, to } = pageRange(page, limit, total);
    body = (
      <>
        <div className="mt-6 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600" data-testid="article-counts">
          <p>
            Showing {from}-{to} of {total} articles
          </p>
          <p>
            Page {page} of {totalPages}
          </p>
        </div>
        <div className="mt-4 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="article-grid">
          {data.page.articles.map((article) => (
            <ArticleCard key={article.id} article={article} />
          ))}
        </div>
        <Pagination page={page} totalPages={totalPages} hrefFor={(p) => hrefFor(p)} scrollTargetId={ARTICLES_SECTION_ID} />
      </>
    );
  }

  return (
    <>
      <PageHero eyebrow="Members Only" title="Knowledge Center">
        Practical articles from trusted homeowner sources, a home maintenance calendar and video tutorials, all in one place.
      </PageHero>

      <div className="container-page py-10 sm:py-12">
        <section aria-labelledby="tools-heading">
          <h2 id="tools-heading" className="sr-only">
            Member tools
          </h2>
          <KnowledgeTools />
        </section>

        <section id={ARTICLES_SECTION_ID} aria-labelledby="articles-heading" className="mt-12">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 id="articles-heading" className="font-serif text-2xl font-bold text-brand-900 sm:text-3xl">
                Latest Articles
              </h2>
              <p className="mt-1 text-slate-600">Fresh reading on home improvement, safety, savings and more.</p>
            </div>
            <div className="flex w-full flex-wrap items-end gap-3 sm:w-auto">
              <Form method="get" action={location.pathname} className="flex min-w-0 flex-1 items-end gap-2 sm:flex-none" preventScrollReset>
                <div className="min-w-0 flex-1 sm:w-64">
                  <label htmlFor="category-filter" className="field-label">
                    Category
                  </label>
                  <select
                    id="category-filter"
                    name="category"
                    className="field-input"
                    value={category ?? ""}
                    onChange={(e) => navigate(hrefFor(1, e.target.value || null), { preventScrollReset: true })}
                  >
                    {options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </div>
                {hydrated ? null : (
                  <button type="submit" className="btn-outline">
                    Filter
                  </button>
                )}
              </Form>
              <button type="button" className="btn-primary" onClick={refresh} disabled={!hydrated || refreshing}>
                <RefreshCw className={`h-4 w-4 ${refreshing ? "animate-spin" : ""}`} aria-hidden />
                {refreshing ? "Refreshing..." : "Refresh"}
              </button>
            </div>
          </div>

          {notice ? <NoticeBanner notice={notice} onDismiss={dismiss} /> : null}

          <div className="relative" aria-busy={loading}>
            {loading ? (
              <div role="status" className="absolute inset-x-0 top-2 z-10 flex justify-center">
                <span className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-medium text-brand-800 shadow-md ring-1 ring-slate-200">
                  <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                  Loading articles...
                </span>
              </div>
            ) : null}
            <div className={loading ? "pointer-events-none opacity-60 transition-opacity" : "transition-opacity"}>{body}</div>
          </div>
        </section>
      </div>
    </>
  );
}

function NoticeBanner({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  const ok = notice.kind === "success";
  const Icon = ok ? CircleCheck : CircleAlert;
  return (
    <div
      role={ok ? "status" : "alert"}
      className={`mt-6 flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${ok ? "border-green-200 bg-green-50 text-green-900" : "border-red-200 bg-red-50 text-red-900"}`}
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <p className="flex-1" data-testid="refresh-message">
        {notice.text}
      </p>
      <button type="button" onClick={onDismiss} className="rounded p-0.5 hover:bg-black/5" aria-label="Dismiss message">
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

function EmptyState({
  category,
  showAllHref,
  onRefresh,
  refreshing,
  hydrated,
}: {
  category: string | null;
  showAllHref: string;
  onRefresh: () => void;
  refreshing: boolean;
  hydrated: boolean;
}) {
  return (
    <div className="mt-8 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50 px-6 py-14 text-center">
      <Inbox className="h-10 w-10 text-slate-400" aria-hidden />
      <h3 className="mt-4 text-xl font-semibold text-brand-900">
        {category ? `No articles found in ${categoryLabel(category)}` : "No articles found"}
      </h3>
      <p className="mt-2 max-w-md text-slate-600">
        New articles arrive as our feeds are refreshed. Try another category or refresh the feeds.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={showAllHref} preventScrollReset onClick={() => scrollToSection(ARTICLES_SECTION_ID)} className="btn-outline">
          Show All Articles
        </Link>
        <button type="button" className="btn-primary" onClick={onRefresh} disabled={!hydrated || refreshing}>
          <RefreshCw className={`h-4 w-4 ${refreshing ? "animate-spin" : ""}`} aria-hidden />
          {refreshing ? "Refreshing..." : "Refresh Articles"}
        </button>
      </div>
    </div>
  );
}

function LoadError({ retryHref }: { retryHref: string }) {
  return (
    <div role="alert" className="mt-8 flex flex-col items-center rounded-xl border border-red-200 bg-red-50 px-6 py-14 text-center">
      <CircleAlert className="h-10 w-10 text-red-600" aria-hidden />
      <p className="mt-4 text-lg font-semibold text-red-900">{LOAD_FAILED}</p>
      <Link to={retryHref} preventScrollReset className="btn-primary mt-6">
        <RefreshCw className="h-4 w-4" aria-hidden />
        Try Again
      </Link>
    </div>
  );
}
