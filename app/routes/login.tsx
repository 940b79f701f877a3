import { data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { pageMeta } from "~/components/seo";
import { formAfterPage } from "~/components/forms/afterPage";
import { parseForm } from "~/components/forms/parse-form";
import { loginSchema } from "~/features/auth/contract";
import { sessionCookie } from "~/features/auth/cookie.server";
import { deviceCookieHeader, readDeviceCookie } from "~/features/auth/device-cookie.server";
import { landingPath, safeRedirectPath } from "~/features/auth/redirect";
import { expectedError } from "~/platform/http.server";
import { readPostedForm } from "~/platform/posted-form.server";
import { publicPage } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = publicPage(["redirectTo"]);

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
  const submission = parseForm(form, loginSchema);
  const kind = form.get("kind") === "staff" ? "staff" : "member";
  // The birthdate or password is never sent back into the page.
  const reply = (formErrors?: string[]) => submission.reply({ formErrors, hideFields: ["password"] });
  if (submission.status !== "success") return data({ kind, result: reply() }, { status: 400 });
  try {
    const device = readDeviceCookie(request.headers.get("cookie"), context.secure);
    const result = await context.services.auth.login(submission.value, context.ip, context.secure, device);
    await context.services.auth.logout(context.sessionToken ?? undefined);
    const headers = new Headers();
    headers.append("Set-Cookie", sessionCookie(result.token, result.expiresAt, context.secure));
    headers.append("Set-Cookie", deviceCookieHeader(result.deviceCookie, context.secure));
    return redirect(landingPath(result.user, redirectTo, origin), { headers });
  } catch (err) {
    const refused = expectedError(err);
    if (!refused) throw err;
    return data({ kind, result: reply([refused.message]) }, { status: refused.status, headers: refused.headers });
  }
}

/** The form's code (zod, Conform, Radix's tabs, the schema) comes after the page: components/forms/afterPage. */
const LoginForm = formAfterPage(() => import("~/features/auth/LoginForm").then((m) => m.LoginForm));

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container-page grid min-h-[70vh] items-center gap-8 py-12 sm:py-16 lg:grid-cols-2 lg:gap-12">
        {/* The page's one heading of level 1, at every width; the explanation beside the form is for wide screens. */}
        <div>
          <h1 className="text-center font-serif text-3xl font-bold text-brand-900 lg:text-left lg:text-4xl">Member Login</h1>
          <div className="hidden lg:block">
            <p className="mt-4 max-w-md text-lg text-slate-700">
              Sign in to reach the members-only knowledge center: articles from trusted sources, the home maintenance calendar and video
              tutorials.
            </p>
            <ul className="mt-6 space-y-2 text-slate-700">
              <li>• Your certificate number is printed on your membership certificate.</li>
              <li>• Your date of birth is your password, entered as MMDDYY.</li>
            </ul>
          </div>
        </div>
        <div className="flex flex-col items-center rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-10">
          <h2 className="mb-6 font-serif text-2xl font-bold text-brand-900">Sign in to your account</h2>
          <LoginForm
            redirectTo={loaderData.redirectTo}
            lastResult={actionData?.result}
            initialKind={actionData?.kind === "staff" ? "staff" : "member"}
          />
        </div>
      </div>
    </section>
  );
}
