import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { clearSessionCookie } from "~/features/auth/cookie.server";
import { readPostedForm } from "~/platform/posted-form.server";

/** Log Out: ends the session on the server, clears the cookie, goes home. */
export async function action({ request, context }: Route.ActionArgs) {
  await readPostedForm(request);
  await context.services.auth.logout(context.sessionToken ?? undefined);
  return redirect("/", { headers: { "Set-Cookie": clearSessionCookie(context.secure) } });
}

export async function loader() {
  return redirect("/");
}
