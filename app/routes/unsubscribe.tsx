import { data } from "react-router";
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
 * nothing (mail programs' link checkers open links too): the button posts to the same address,
 * as a mail program's one click does (RFC 8058), handled before the pages
 * (features/announcements/api.server.ts), which sends the button back here with ?done=.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const member = await context.services.announcements.linkMember(params.token);
  const done = new URL(request.url).searchParams.get("done");
  const shown = member
    ? { valid: true as const, firstName: member.firstName, receives: member.receives, done: done === "1" }
    : { valid: false as const };
  return data(shown, { status: member ? 200 : 404 });
}

export default function UnsubscribeRoute({ loaderData, params }: Route.ComponentProps) {
  const shown = loaderData;
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
            {/* A document post, not a fetch: the one-click handler answers it with a redirect back here. */}
            <form method="post" action={`/unsubscribe/${encodeURIComponent(params.token)}`} className="mt-6">
              <input type="hidden" name="from" value="page" />
              <button type="submit" className="btn-primary">
                {UNSUBSCRIBE_TEXTS.confirm}
              </button>
            </form>
          </>
        )}
      </div>
    </section>
  );
}
