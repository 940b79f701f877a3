import { data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { pageMeta } from "~/components/seo";
import { LoginForm } from "~/features/auth/LoginForm";
import { loginSchema } from "~/features/auth/auth.server";
import { sessionCookie } from "~/features/auth/cookie.server";
import { landingPath, safeRedirectPath } from "~/features/auth/redirect";
import { HttpError } from "~/platform/http.server";
import { readPostedForm } from "~/platform/posted-form.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Member Login",
    description: "Sign in with your certificate number and date of birth to reach the members-only knowledge center.",
    noindex: true,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), url.origin);
  if (context.user) throw redirect(landingPath(context.user, redirectTo, url.origin));
  return { redirectTo };
}

/** The form's fallback when JavaScript is off: same service, then a redirect. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readPostedForm(request);
  const origin = new URL(request.url).origin;
  const redirectTo = safeRedirectPath(String(form.get("redirectTo") ?? ""), origin);
  const parsed = loginSchema.safeParse({
    username: form.get("username") ?? "",
    password: form.get("password") ?? "",
    kind: form.get("kind") || "member",
  });
  const kind = parsed.success ? parsed.data.kind : form.get("kind") === "staff" ? "staff" : "member";
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Login failed", kind }, { status: 400 });
  try {
    const result = await context.services.auth.login(parsed.data, context.ip, context.secure);
    await context.services.auth.logout(context.sessionToken ?? undefined);
    return redirect(landingPath(result.user, redirectTo, origin), {
      headers: { "Set-Cookie": sessionCookie(result.token, result.expiresAt, context.secure) },
    });
  } catch (err) {
    if (err instanceof HttpError) return data({ error: err.message, kind }, { status: err.status, headers: err.headers });
    throw err;
  }
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container-page grid min-h-[70vh] items-center gap-12 py-16 lg:grid-cols-2">
        <div className="hidden lg:block">
          <h1 className="font-serif text-4xl font-bold text-brand-900">Member Login</h1>
          <p className="mt-4 max-w-md text-lg text-slate-700">
            Sign in to reach the members-only knowledge center: articles from trusted sources, the home maintenance calendar and
            video tutorials.
          </p>
          <ul className="mt-6 space-y-2 text-slate-700">
            <li>• Your certificate number is printed on your membership certificate.</li>
            <li>• Your date of birth is your password, entered as MMDDYY.</li>
          </ul>
        </div>
        <div className="flex flex-col items-center rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-10">
          <h1 className="mb-6 font-serif text-2xl font-bold text-brand-900 lg:hidden">Member Login</h1>
          <h2 className="mb-6 hidden font-serif text-2xl font-bold text-brand-900 lg:block">Sign in to your account</h2>
          <LoginForm
            redirectTo={loaderData.redirectTo}
            serverError={actionData?.error}
            initialKind={actionData?.kind === "staff" ? "staff" : "member"}
          />
        </div>
      </div>
    </section>
  );
}
