import type { Route } from "./+types/admin-members";
import { pageMeta } from "~/components/seo";
import { MemberAdministration } from "~/features/members/admin/MemberAdministration";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Member Administration", description: "Manage members, staff accounts and the audit log.", noindex: true });

/** /admin/members: any admin; the staff and audit tabs only for super_admin (the API checks again). */
export async function loader({ context }: Route.LoaderArgs) {
  return { user: requireAdmin(context) };
}

export default function AdminMembersRoute({ loaderData }: Route.ComponentProps) {
  return <MemberAdministration user={loaderData.user} />;
}
