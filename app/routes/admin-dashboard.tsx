import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/admin-dashboard";
import { pageMeta } from "~/components/seo";
import { signedInPage } from "~/platform/public-page";
import { AdminDashboard, resolveNotice, resolveTab } from "~/features/admin/AdminDashboard";
import { requireAdmin } from "~/features/auth/guards.server";
import { StaffPermissions } from "~/features/auth/staff-permissions.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Admin Dashboard", description: "Manage AHA content and submissions.", noindex: true });

/** The same for every staff member of a role but their name: kept rendered, with them put in when served (decision 011). */
export const handle = signedInPage("membership", ["tab", "notice"]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  // A super admin always may (no read); a limited admin's kept page is checked again in the browser (AdminDashboard).
  const announcements = await new StaffPermissions(context.services.database.db).allows(user, "announcements");
  const tab = resolveTab(user, params.get("tab"), announcements);
  const membership = await context.services.membershipDashboard.figures().catch((err: unknown) => {
    context.services.logger.error({ err }, "admin dashboard: membership figures failed");
    return null;
  });
  return { user, tab, notice: resolveNotice(user, params.get("notice")), membership, announcements };
}

/**
 * The tabs and the notice keep their state in the address: changing them changes nothing the
 * loader reads but the initial tab, so the membership figures are not computed again.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AdminDashboard
      user={loaderData.user}
      initialTab={loaderData.tab}
      notice={loaderData.notice}
      membership={loaderData.membership}
      announcements={loaderData.announcements}
    />
  );
}
