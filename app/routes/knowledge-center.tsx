import type { Route } from "./+types/knowledge-center";
import { pageMeta } from "~/components/seo";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/platform/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Knowledge Center",
    description: "Members-only articles, a home maintenance calendar and video tutorials for homeowners.",
  });

export async function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export default function KnowledgeCenterRoute() {
  return (
    <PageHero eyebrow="Members Only" title="Knowledge Center">
      Articles, a home maintenance calendar and video tutorials for members.
    </PageHero>
  );
}
