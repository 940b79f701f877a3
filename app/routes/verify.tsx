import { data } from "react-router";
import { BadgeCheck, ShieldX } from "lucide-react";
import type { Route } from "./+types/verify";
import { pageMeta } from "~/components/seo";
import { formatLongDay } from "~/features/membership/coverage";
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
 * Where a proof-of-coverage card's QR code leads: covered or not, the first name, the last
 * initial and the covered-through date, and nothing else about the member (issue 31).
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
          <>
            {found.covered ? (
              <BadgeCheck className="mx-auto mt-6 h-14 w-14 text-emerald-600" aria-hidden />
            ) : (
              <ShieldX className="mx-auto mt-6 h-14 w-14 text-red-600" aria-hidden />
            )}
            <h1 className={`mt-4 font-serif text-3xl font-bold ${found.covered ? "text-emerald-700" : "text-red-700"}`}>
              {found.covered ? "Covered" : "Not covered"}
            </h1>
            <dl className="mt-6 grid grid-cols-2 gap-4 text-left">
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Member</dt>
                <dd className="mt-1 text-lg font-semibold text-slate-900">
                  {found.firstName}
                  {found.lastInitial ? ` ${found.lastInitial}.` : ""}
                </dd>
              </div>
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Covered through</dt>
                <dd className="mt-1 text-lg font-semibold text-slate-900">
                  {found.coveredThrough ? formatLongDay(found.coveredThrough) : "Not yet paid"}
                </dd>
              </div>
            </dl>
          </>
        )}
      </div>
    </section>
  );
}
