import { Form, data, useNavigation } from "react-router";
import { CircleCheck, LoaderCircle, MailCheck, MailX } from "lucide-react";
import type { Route } from "./+types/account-email";
import { pageMeta } from "~/components/seo";
import { readPostedForm } from "~/platform/posted-form.server";
import { EMAIL_CHANGE } from "~/features/account/contract";
import type { EmailChangeLink } from "~/features/account/email-change.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: EMAIL_CHANGE.pageTitle, description: "Confirm the new e-mail address of your membership.", noindex: true });

/** The link carries a one-time token: never kept by a cache, never sent on as a referrer. */
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

type Shown = { link: EmailChangeLink; confirmed: boolean };

/**
 * Where the link sent to a member's new e-mail address leads (issue 39). Opening it changes
 * nothing (a mail program's link checker opens links too): the page names the address and
 * its button confirms it, once, whoever's browser it is (the link is the proof of the mailbox).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const link = await context.services.emailChanges.inspect(params.token);
  const shown: Shown = { link, confirmed: false };
  return data(shown, { status: statusOf(link) });
}

/** A link nobody sent: 404; one used or run out: 410 (gone). */
const statusOf = (link: EmailChangeLink) => (link.state === "valid" ? 200 : link.state === "invalid" ? 404 : 410);

export async function action({ request, params, context }: Route.ActionArgs) {
  await readPostedForm(request);
  const link = await context.services.emailChanges.confirm(params.token);
  const shown: Shown = { link, confirmed: link.state === "valid" };
  return data(shown, { status: statusOf(link) });
}

export default function AccountEmailRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { link, confirmed } = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section className="container-page flex justify-center py-16 sm:py-24">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">My account</p>
        {confirmed && link.state === "valid" ? (
          <>
            <CircleCheck className="mx-auto mt-6 h-14 w-14 text-emerald-600" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">E-mail address changed</h1>
            <p className="mt-3 break-words text-slate-700" role="status">
              {EMAIL_CHANGE.done(link.newEmail)}
            </p>
            <a href="/account" className="btn-primary mt-6 inline-flex">
              Go to My account
            </a>
          </>
        ) : link.state === "valid" ? (
          <>
            <MailCheck className="mx-auto mt-6 h-14 w-14 text-brand-600" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">{EMAIL_CHANGE.pageTitle}</h1>
            <p className="mt-3 break-words text-slate-700">{EMAIL_CHANGE.question(link.newEmail)}</p>
            <Form method="post" className="mt-6">
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
                {EMAIL_CHANGE.confirm}
              </button>
            </Form>
          </>
        ) : (
          <>
            <MailX className="mx-auto mt-6 h-14 w-14 text-slate-400" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">
              {link.state === "used" ? "Link already used" : link.state === "expired" ? "Link expired" : "Link not valid"}
            </h1>
            <p className="mt-3 text-slate-700" role="alert">
              {link.state === "used" ? EMAIL_CHANGE.used : link.state === "expired" ? EMAIL_CHANGE.expired : EMAIL_CHANGE.invalid}
            </p>
          </>
        )}
      </div>
    </section>
  );
}
