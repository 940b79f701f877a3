import { Link } from "react-router";
import { BookOpen, Calculator, Check, ChevronRight } from "lucide-react";
import { REQUEST_FORMS, type RequestFormKind } from "~/features/submissions/intake/request-forms";

const ICONS: Record<RequestFormKind, typeof Calculator> = { cpa: Calculator, homeowner: BookOpen };

/**
 * The two request forms as links (?form=cpa, ?form=homeowner), so choosing works without
 * JavaScript too. Large cards while nothing is chosen, a compact switch afterwards.
 */
export function FormChooser({ selected }: { selected: RequestFormKind | null }) {
  const kinds = Object.keys(REQUEST_FORMS) as RequestFormKind[];
  if (!selected) {
    return (
      <section aria-labelledby="select-form-title">
        <h2 id="select-form-title" className="font-serif text-2xl font-bold text-brand-900 sm:text-3xl">
          Select a Form
        </h2>
        <p className="mt-2 max-w-2xl text-slate-700">Choose the request you would like to send. It only takes a minute.</p>
        <ul className="mt-6 grid gap-5 md:grid-cols-2">
          {kinds.map((kind) => {
            const Icon = ICONS[kind];
            return (
              <li key={kind}>
                <Link
                  to={`?form=${kind}`}
                  preventScrollReset
                  className="group flex h-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-500 hover:shadow-md"
                >
                  <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 group-hover:bg-brand-100">
                    <Icon className="h-6 w-6" aria-hidden />
                  </span>
                  <span className="flex-1">
                    <span className="block text-lg font-semibold text-brand-900">{REQUEST_FORMS[kind].title}</span>
                    <span className="mt-1 block text-sm text-slate-600">{REQUEST_FORMS[kind].summary}</span>
                    <span className="mt-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 group-hover:underline">
                      Start this request <ChevronRight className="h-4 w-4" aria-hidden />
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    );
  }
  return (
    <nav aria-label="Request forms" className="flex flex-wrap items-center gap-2">
      <span className="mr-1 text-sm font-medium text-slate-600">Request form:</span>
      {kinds.map((kind) => {
        const active = kind === selected;
        return (
          <Link
            key={kind}
            to={`?form=${kind}`}
            preventScrollReset
            aria-current={active ? "page" : undefined}
            className={`inline-flex items-center gap-1.5 rounded-full border px-4 py-1.5 text-sm font-medium transition ${
              active
                ? "border-brand-700 bg-brand-700 text-white"
                : "border-slate-300 bg-white text-slate-700 hover:border-brand-500 hover:text-brand-800"
            }`}
          >
            {active ? <Check className="h-4 w-4" aria-hidden /> : null}
            {REQUEST_FORMS[kind].title}
          </Link>
        );
      })}
    </nav>
  );
}
