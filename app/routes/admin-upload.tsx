import type { Route } from "./+types/admin-upload";
import { pageMeta } from "~/components/seo";
import { AdminUserUpload } from "~/features/member-import/AdminUserUpload";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Admin User Upload", description: "Import members in bulk from a CSV file.", noindex: true });

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

/** /admin/upload ('Admin User Upload'): CSV member import, JSON variant; any admin. */
export default function Page() {
  return <AdminUserUpload />;
}
