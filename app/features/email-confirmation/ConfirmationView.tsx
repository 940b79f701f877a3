import { Link } from "react-router";
import { CircleAlert, LogIn, MailCheck } from "lucide-react";
import type { ConfirmationResult } from "./confirmation";

export const CONFIRMATION_HEADINGS = {
  loading: "Confirming your email",
  success: "Email Confirmed",
  error: "Confirmation Failed",
} as const;

export function ConfirmationLoading() {
  return (
    <div data-confirmation-loading className="flex flex-col items-center text-center">
      <span className="h-14 w-14 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" aria-hidden />
      <h1 className="mt-6 font-serif text-3xl font-bold text-brand-900">{CONFIRMATION_HEADINGS.loading}</h1>
      <p className="mt-3 text-slate-600">Please wait while we check your confirmation link...</p>
    </div>
  );
}

/** The result: the spec's message, 'Go to Login' on success only, and 'Back to Home'. */
export function ConfirmationOutcome({ result }: { result: ConfirmationResult }) {
  const success = result.status === "success";
  const Icon = success ? MailCheck : CircleAlert;
  return (
    <div className="flex flex-col items-center text-center" data-testid={`confirmation-${result.status}`}>
      <span
        className={`flex h-16 w-16 items-center justify-center rounded-full ${success ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700"}`}
      >
        <Icon className="h-8 w-8" aria-hidden />
      </span>
      <h1 className="mt-6 font-serif text-3xl font-bold text-brand-900">
        {success ? CONFIRMATION_HEADINGS.success : CONFIRMATION_HEADINGS.error}
      </h1>
      <p className={`mt-3 max-w-md text-lg ${success ? "text-slate-700" : "text-red-800"}`} role={success ? undefined : "alert"}>
        {result.message}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {success ? (
          <Link to="/login" className="btn-primary px-6 py-3 text-base">
            <LogIn className="h-5 w-5" aria-hidden /> Go to Login
          </Link>
        ) : null}
        <Link to="/" className={`${success ? "btn-outline" : "btn-primary"} px-6 py-3 text-base`}>
          Back to Home
        </Link>
      </div>
      {success ? null : (
        <p className="mt-6 text-sm text-slate-600">
          Still having trouble?{" "}
          <Link to="/contact-us" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
            Contact our member services team
          </Link>
          .
        </p>
      )}
    </div>
  );
}
