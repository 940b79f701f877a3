import { useMemo } from "react";
import { redirect } from "react-router";
import type { Route } from "./+types/account";
import { pageMeta } from "~/components/seo";
import { requireUser } from "~/features/auth/guards.server";
import { isAdmin } from "~/features/auth/user";
import { AccountContent, overviewOf } from "~/features/account/AccountPage";
import { signedInFrame } from "~/platform/public-page";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "My Account", description: "Your membership, what you sent us and your contact details.", noindex: true });

/**
 * The page's frame (header, footer, React Router's document) is kept per role and shape of the
 * member; its content is read and rendered for each request and put in (decision 013).
 */
export const handle = signedInFrame("account");

/**
 * A signed-in member's own page (issue 18); staff have no membership and go to their dashboard.
 * The overview is one JSON string: the server puts it into a kept frame as it is.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  if (isAdmin(user)) throw redirect("/admin/dashboard");
  return { overview: context.frameContent ?? JSON.stringify(await context.services.account.overview(user.id)) };
}

export default function AccountRoute({ loaderData }: Route.ComponentProps) {
  const overview = useMemo(() => overviewOf(loaderData.overview), [loaderData.overview]);
  // The server rendering the kept frame: its stand-in's marker stands where the content goes.
  if (overview === null) return loaderData.overview;
  return <AccountContent overview={overview} />;
}
