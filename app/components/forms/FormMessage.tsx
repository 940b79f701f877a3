import type { ReactNode } from "react";
import { AlertCircle, CheckCircle2 } from "lucide-react";

/**
 * A success or error message about the whole form. Errors are announced at once (role="alert");
 * a failure alert carries the form's `failureId`, so that `announceFailure` can give it the focus.
 */
export function FormMessage({
  tone,
  children,
  testId,
  id,
}: {
  tone: "success" | "error";
  children: ReactNode;
  testId?: string;
  id?: string;
}) {
  const success = tone === "success";
  const Icon = success ? CheckCircle2 : AlertCircle;
  return (
    <div
      id={id}
      tabIndex={id ? -1 : undefined}
      role={success ? "status" : "alert"}
      data-testid={testId}
      className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200 ${
        success ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"
      }`}
    >
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${success ? "text-green-700" : "text-red-700"}`} aria-hidden />
      <div className="space-y-1">{children}</div>
    </div>
  );
}
