import { redirect } from "react-router";
import type { Route } from "./+types/account";
import { pageMeta } from "~/components/seo";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/features/auth/guards.server";
import { isAdmin } from "~/features/auth/user";
import { AccountPage } from "~/features/account/AccountPage";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "My Account", description: "Your membership, what you sent us and your contact details.", noindex: true });

/** A signed-in member's own page (issue 18); staff have no membership and go to their dashboard. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  if (isAdmin(user)) throw redirect("/admin/dashboard");
  return { overview: await context.services.account.overview(user.id) };
}

export default function AccountRoute({ loaderData }: Route.ComponentProps) {
  const { membership } = loaderData.overview;
  const name = [membership.firstName, membership.lastName].filter(Boolean).join(" ");
  return (
    <>
      <PageHero eyebrow="My account" title={name ? `Hello, ${name}` : "Your membership"}>
        Your membership, what you have sent us and its status, and how to reach you.
      </PageHero>
      <AccountPage overview={loaderData.overview} />
    </>
  );
}
