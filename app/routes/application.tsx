import type { Route } from "./+types/application";
import { pageMeta } from "~/components/seo";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Membership Application", description: "Apply for membership in the association." , noindex: true});

export async function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

// The application form is built by its own issue; this route already carries its guard.
export default function ApplicationRoute() {
  return (
    <PageHero eyebrow="Membership" title="Membership Application">
      The online application form is being prepared. Please contact member services to apply today.
    </PageHero>
  );
}
