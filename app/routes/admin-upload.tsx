import type { Route } from "./+types/admin-upload";
import { pageMeta } from "~/components/seo";
import { requireAdmin } from "~/features/auth/guards.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Admin User Upload", description: "Import members in bulk from a CSV file.", noindex: true });

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

// The CSV member import is built by its own issue; this route already carries its guard.
export default function Page() {
  return (
    <section className="container-page py-12">
      <h1 className="font-serif text-3xl font-bold text-brand-900">Admin User Upload</h1>
      <p className="mt-3 text-slate-600">Import members in bulk from a CSV file.</p>
    </section>
  );
}
