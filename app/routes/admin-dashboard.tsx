import type { Route } from "./+types/admin-dashboard";
import { pageMeta } from "~/components/seo";
import { AdminDashboard, resolveTab } from "~/features/admin/AdminDashboard";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Admin Dashboard", description: "Manage AHA content and submissions.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin(context);
  const tab = resolveTab(user, new URL(request.url).searchParams.get("tab"));
  return { user, tab };
}

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard user={loaderData.user} initialTab={loaderData.tab} />;
}
