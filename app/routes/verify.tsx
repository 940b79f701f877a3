import { data } from "react-router";
import { BadgeCheck, CalendarClock, ShieldX } from "lucide-react";
import type { Route } from "./+types/verify";
import { pageMeta } from "~/components/seo";
import { checkedText, proofDate, proofHeading } from "~/features/membership/proof";
import { DomainError } from "~/platform/errors";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Proof of Coverage", description: "Whether a member's home protection plan is in force.", noindex: true });

/**
 * The answer changes when the member pays, lapses or gets a new card: never kept by a cache.
 * A refusal's Retry-After comes from the loader.
 */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const out = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = loaderHeaders.get("Retry-After");
  if (retryAfter) out.set("Retry-After", retryAfter);
  return out;
}

/**
 * Where a proof-of-coverage card's QR code leads: covered or not, the one date that says so
 * (named for what it is: proof.ts), the member's and the co-insured's first names and last
 * initials, and the day of the check; nothing else about them (issues 31, 39).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return { found: await context.services.verify.verify(params.token, context.ip) };
  } catch (err) {
    if (err instanceof DomainError && (err.kind === "not_found" || err.kind === "rate_limited")) {
      const headers: Record<string, string> = err.retryAfterSeconds ? { "Retry-After": String(err.retryAfterSeconds) } : {};
      return data({ found: null, refused: err.message }, { status: err.kind === "not_found" ? 404 : 429, headers });
    }
    throw err;
  }
}

export default function VerifyRoute({ loaderData }: Route.ComponentProps) {
  const found = loaderData.found;
  return (
    <section className="container-page flex justify-center py-16 sm:py-24">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Proof of coverage</p>
        {!found ? (
          <>
            <ShieldX className="mx-auto mt-6 h-14 w-14 text-slate-400" aria-hidden />
            <h1 className="mt-4 font-serif text-2xl font-bold text-brand-900">Not verified</h1>
            <p className="mt-3 text-slate-600" role="alert">
              {"refused" in loaderData ? loaderData.refused : null}
            </p>
          </>
        ) : (
          <FoundCoverage found={found} />
        )}
      </div>
    </section>
  );
}

type Found = Exclude<Route.ComponentProps["loaderData"]["found"], null>;

function FoundCoverage({ found }: { found: Found }) {
  const date = proofDate(found);
  const person = (who: { firstName: string; lastInitial: string }) => `${who.firstName}${who.lastInitial ? ` ${who.lastInitial}.` : ""}`;
  const item = (label: string, value: string, wide = false) => (
    <div className={wide ? "col-span-2" : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900">{value}</dd>
    </div>
  );
  return (
    <>
      {found.covered ? (
        <BadgeCheck className="mx-auto mt-6 h-14 w-14 text-emerald-600" aria-hidden />
      ) : found.status === "starts" ? (
        <CalendarClock className="mx-auto mt-6 h-14 w-14 text-sky-700" aria-hidden />
      ) : (
        <ShieldX className="mx-auto mt-6 h-14 w-14 text-red-600" aria-hidden />
      )}
      <h1
        className={`mt-4 font-serif text-3xl font-bold ${found.covered ? "text-emerald-700" : found.status === "starts" ? "text-sky-800" : "text-red-700"}`}
      >
        {proofHeading(found)}
      </h1>
      <dl className="mt-6 grid grid-cols-2 gap-4 text-left" data-testid="verify-facts">
        {item("Member", person(found))}
        {found.coInsured ? item("Co-insured", person(found.coInsured)) : null}
        {item(date.label, date.value, found.coInsured !== null)}
      </dl>
      <p className="mt-6 border-t border-slate-200 pt-3 text-sm text-slate-600" data-testid="verify-checked">
        {checkedText(found.checkedOn)}
      </p>
    </>
  );
}
