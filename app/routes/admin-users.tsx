import type { Route } from "./+types/admin-users";
import { pageMeta } from "~/components/seo";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "User Upload", description: "Upload a CSV file of members.", noindex: true });

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

// The CSV member import is built by its own issue; this route already carries its guard.
export default function Page() {
  return (
    <section className="container-page py-12">
      <h1 className="font-serif text-3xl font-bold text-brand-900">User Upload</h1>
      <p className="mt-3 text-slate-600">Upload a CSV file of members.</p>
    </section>
  );
}
