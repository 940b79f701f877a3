import type { Route } from "./+types/admin-users";
import { pageMeta } from "~/components/seo";
import { UserUpload } from "~/features/member-import/UserUpload";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "User Upload", description: "Upload a CSV file of members.", noindex: true });

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

/** /admin/users ('User Upload'): CSV member import, multipart variant; any admin. */
export default function Page() {
  return <UserUpload />;
}
