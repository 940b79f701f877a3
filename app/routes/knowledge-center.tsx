import { redirect } from "react-router";
import type { Route } from "./+types/knowledge-center";
import { pageMeta } from "~/components/seo";
import { signedInPage } from "~/platform/public-page";
import { gateVisitorFromKnowledgeCenter, requireUser } from "~/features/auth/guards.server";
import { rssApi } from "~/features/articles/api-client";
import { categoryParam, toKnowledgeCenterPage } from "~/features/articles/cards";
import type { ArticlesPage } from "~/features/articles/contract";
import { KnowledgeCenter, type KnowledgeCenterData } from "~/features/articles/KnowledgeCenter";
import { KNOWLEDGE_CENTER_PAGE_SIZE, knowledgeCenterSearch, parsePageParam } from "~/features/articles/pagination";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Knowledge Center",
    description: "Members-only articles, a home maintenance calendar and video tutorials for homeowners.",
  });

/** The same for every member but their name: kept rendered, with the member put in when served (decision 011). */
export const handle = signedInPage("articles", ["category", "page"]);

/** Category and page of the URL (?category=&page=), so a link or a reload shows the same page. */
function readQuery(request: Request) {
  const url = new URL(request.url);
  return { url, category: categoryParam(url.searchParams.get("category")), page: parsePageParam(url.searchParams.get("page")) };
}

/** A page past the end goes to the last page. */
function pastTheEnd(url: URL, category: string | null, page: number, answer: ArticlesPage) {
  const last = answer.pagination.totalPages;
  return last > 0 && page > last ? redirect(`${url.pathname}${knowledgeCenterSearch({ category, page: last })}`) : null;
}

export async function loader({ request, context }: Route.LoaderArgs): Promise<KnowledgeCenterData> {
  gateVisitorFromKnowledgeCenter(context, new URL(request.url).pathname);
  requireUser(context);
  const { url, category, page } = readQuery(request);
  let answer: ArticlesPage;
  try {
    answer = await context.services.articles.listArticles({ page, limit: KNOWLEDGE_CENTER_PAGE_SIZE, category });
  } catch (err) {
    context.services.logger.error({ err }, "knowledge center: listing articles failed");
    return { status: "error", category };
  }
  const moved = pastTheEnd(url, category, page, answer);
  if (moved) throw moved;
  return { status: "ok", category, page: toKnowledgeCenterPage(answer) };
}

/** In the browser, page and category changes read GET /api/rss/articles; a failure shows the error state in place. */
export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<KnowledgeCenterData> {
  const { url, category, page } = readQuery(request);
  let answer: ArticlesPage;
  try {
    answer = await rssApi.listArticles({ page, limit: KNOWLEDGE_CENTER_PAGE_SIZE, category });
  } catch {
    return { status: "error", category };
  }
  const moved = pastTheEnd(url, category, page, answer);
  if (moved) throw moved;
  return { status: "ok", category, page: toKnowledgeCenterPage(answer) };
}

export default function KnowledgeCenterRoute({ loaderData }: Route.ComponentProps) {
  return <KnowledgeCenter data={loaderData} />;
}
