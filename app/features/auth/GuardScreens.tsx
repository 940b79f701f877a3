import { Link, useLocation } from "react-router";
import { Lock } from "lucide-react";
import { JoiningNote } from "~/components/JoiningNote";

export const VERIFYING_TEXT = "Verifying authentication...";

export function VerifyingAuth() {
  return (
    <section className="container-page flex min-h-[50vh] flex-col items-center justify-center py-20" role="status" aria-live="polite">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" aria-hidden />
      <p className="mt-4 text-slate-600">{VERIFYING_TEXT}</p>
    </section>
  );
}

export function AuthRequired() {
  const location = useLocation();
  const redirectTo = location.pathname + location.search;
  return (
    <section className="container-page flex min-h-[50vh] flex-col items-center justify-center py-20 text-center">
      <title>Authentication Required | American Homeowners Association</title>
      <meta name="robots" content="noindex" />
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Lock className="h-7 w-7" aria-hidden />
      </span>
      <h1 className="mt-5 font-serif text-3xl font-bold text-brand-900">Authentication Required</h1>
      <p className="mt-3 text-slate-600">You must be logged in to access this area</p>
      {location.pathname === "/application" ? <JoiningNote className="mt-4 max-w-xl text-slate-700" /> : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={`/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="btn-primary">
          Go to Login
        </Link>
        <Link to="/" className="btn-outline">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
