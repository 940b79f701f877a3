import type { Route } from "./+types/admin-dashboard";
import { pageMeta } from "~/components/seo";
import { AdminDashboard, resolveNotice, resolveTab } from "~/features/admin/AdminDashboard";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Admin Dashboard", description: "Manage AHA content and submissions.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const tab = resolveTab(user, params.get("tab"));
  return { user, tab, notice: resolveNotice(user, params.get("notice")) };
}

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard user={loaderData.user} initialTab={loaderData.tab} notice={loaderData.notice} />;
}
