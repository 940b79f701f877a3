import type { Route } from "./+types/admin-rss";
import { pageMeta } from "~/components/seo";
import { AdminDashboard } from "~/features/admin/AdminDashboard";
import { requireSuperAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "RSS Feed Management", description: "Manage RSS feeds and content ingestion.", noindex: true });

/** /admin/rss: the dashboard on its RSS tab, super_admin only. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireSuperAdmin(context);
  const membership = await context.services.membershipDashboard.figures().catch((err: unknown) => {
    context.services.logger.error({ err }, "admin dashboard: membership figures failed");
    return null;
  });
  return { user, membership };
}

export default function AdminRssRoute({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard user={loaderData.user} initialTab="rss" membership={loaderData.membership} />;
}
