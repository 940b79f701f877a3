import { data, Form, useNavigation } from "react-router";
import { readPostedForm } from "~/platform/posted-form.server";
import { BellOff, CircleCheck, MailX } from "lucide-react";
import type { Route } from "./+types/unsubscribe";
import { pageMeta } from "~/components/seo";
import { ANNOUNCEMENT_MESSAGES, UNSUBSCRIBE_TEXTS } from "~/features/announcements/contract";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: UNSUBSCRIBE_TEXTS.title, description: "Stop announcements from the association.", noindex: true });

/** The link carries the member's token: never kept by a cache, never sent on as a referrer. */
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

/**
 * Where an announcement's "stop announcements" link leads (issue 41). Opening it changes
 * nothing (mail programs' link checkers open links too): its button stops them (the action).
 * A mail program's one click (RFC 8058) posts to the same address and is answered before the
 * pages (features/announcements/api.server.ts).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const member = await context.services.announcements.linkMember(params.token);
  const shown = member
    ? { valid: true as const, firstName: member.firstName, receives: member.receives, done: false }
    : { valid: false as const };
  return data(shown, { status: member ? 200 : 404 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await readPostedForm(request);
  const done = await context.services.announcements.unsubscribe(params.token);
  return data(done ? { valid: true as const, firstName: null, receives: false, done: true } : { valid: false as const }, {
    status: done ? 200 : 404,
  });
}

export default function UnsubscribeRoute({ loaderData, actionData }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section className="container-page flex justify-center py-16 sm:py-24">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Announcements</p>
        {!shown.valid ? (
          <>
            <MailX className="mx-auto mt-6 h-14 w-14 text-slate-400" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">Link not valid</h1>
            <p className="mt-3 text-slate-700" role="alert">
              {ANNOUNCEMENT_MESSAGES.badLink}
            </p>
          </>
        ) : shown.done || !shown.receives ? (
          <>
            <CircleCheck className="mx-auto mt-6 h-14 w-14 text-emerald-600" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">{UNSUBSCRIBE_TEXTS.doneTitle}</h1>
            <p className="mt-3 text-slate-700" role="status">
              {UNSUBSCRIBE_TEXTS.done}
            </p>
            <p className="mt-3 text-sm text-slate-600">{UNSUBSCRIBE_TEXTS.stillSent}</p>
            <a href="/account" className="btn-secondary mt-6 inline-flex">
              {UNSUBSCRIBE_TEXTS.account}
            </a>
          </>
        ) : (
          <>
            <BellOff className="mx-auto mt-6 h-14 w-14 text-brand-600" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">{UNSUBSCRIBE_TEXTS.title}</h1>
            <p className="mt-3 text-slate-700">{UNSUBSCRIBE_TEXTS.question(shown.firstName)}</p>
            <p className="mt-3 text-sm text-slate-600">{UNSUBSCRIBE_TEXTS.stillSent}</p>
            <Form method="post" className="mt-6">
              <button type="submit" className="btn-primary" disabled={busy}>
                {UNSUBSCRIBE_TEXTS.confirm}
              </button>
            </Form>
          </>
        )}
      </div>
    </section>
  );
}
