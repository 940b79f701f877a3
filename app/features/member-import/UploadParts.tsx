import { CircleAlert, CircleCheck, Download, TriangleAlert } from "lucide-react";
import { REVEAL_MARGIN, useRevealOnChange } from "~/components/admin/reveal";
import { MESSAGES, SHOWN_ERRORS, type UploadResponse, type UploadStats } from "./contract";

export function TemplateButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="btn-outline" onClick={onClick}>
      <Download className="h-4 w-4" aria-hidden />
      Download CSV Template
    </button>
  );
}

/** The first 20 entries, then '... and N more errors' (N counts those the server did not list, too). */
export function ErrorList({ title, items, total, testId }: { title: string; items: string[]; total?: number; testId: string }) {
  if (!items.length) return null;
  const more = Math.max(items.length, total ?? 0) - SHOWN_ERRORS;
  return (
    <div className="mt-4" data-testid={testId}>
      <h3 id={`${testId}-title`} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {/* A focusable region, so the list can be scrolled from the keyboard. */}
      <div role="region" tabIndex={0} aria-labelledby={`${testId}-title`} className="mt-2 max-h-80 overflow-auto">
        <ul className="list-disc space-y-1 pl-5 text-sm break-words text-slate-700">
          {items.slice(0, SHOWN_ERRORS).map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      </div>
      {more > 0 ? <p className="mt-2 text-sm font-medium text-slate-700">... and {more} more errors</p> : null}
    </div>
  );
}

/** How an upload ended: every row imported, some rows skipped, or nothing imported. */
export type UploadTone = "success" | "partial" | "failed";

export function uploadTone(result: Pick<UploadResponse, "success" | "stats">): UploadTone {
  if (!result.success) return "failed";
  return (result.stats?.errors ?? 0) > 0 ? "partial" : "success";
}

/** A partial import's counts side by side: "3 imported, 25 skipped". */
export const importedAndSkipped = (stats: Pick<UploadStats, "successful" | "errors">) =>
  `${stats.successful.toLocaleString("en-US")} imported, ${stats.errors.toLocaleString("en-US")} skipped`;

export const TONE_STYLES: Record<UploadTone, { box: string; text: string; Icon: typeof CircleCheck }> = {
  success: { box: "border-green-200 bg-green-50", text: "text-green-900", Icon: CircleCheck },
  partial: { box: "border-amber-300 bg-amber-50", text: "text-amber-950", Icon: TriangleAlert },
  failed: { box: "border-red-200 bg-red-50", text: "text-red-900", Icon: CircleAlert },
};

/** The result's heading: the spec's two, and a partial import's (some rows imported, some skipped) in their words. */
export const UPLOAD_HEADINGS: Record<UploadTone, string> = {
  success: "Upload Successful",
  partial: "Upload Partially Successful",
  failed: "Upload Failed",
};

/** A repeated post of the same file got the earlier upload's result: said so. */
export function RepeatedNote({ className }: { className: string }) {
  return (
    <p className={className} data-testid="upload-repeated">
      {MESSAGES.repeated}
    </p>
  );
}

/**
 * /admin/upload result panel: outcome, message, four stats, parsing errors and general errors.
 * A partial import is headed 'Upload Partially Successful' and reads as a warning, with the rows
 * skipped beside the rows imported. It is brought into view; the page puts it in <Announced>.
 */
export function ResultPanel({ result }: { result: UploadResponse }) {
  const tone = uploadTone(result);
  const { box, text, Icon } = TONE_STYLES[tone];
  const stats = result.stats ?? { total_processed: 0, successful: 0, errors: 0, processing_time_seconds: 0 };
  const ref = useRevealOnChange<HTMLElement>(result);
  return (
    <section
      ref={ref}
      aria-labelledby="upload-result-title"
      data-testid="upload-result"
      data-tone={tone}
      className={`mt-6 rounded-xl border p-5 ${REVEAL_MARGIN} ${box}`}
    >
      <h2 id="upload-result-title" className={`flex items-center gap-2 text-lg font-semibold ${text}`}>
        <Icon className="h-5 w-5" aria-hidden />
        {UPLOAD_HEADINGS[tone]}
      </h2>
      {result.repeated ? <RepeatedNote className={`mt-1 text-sm font-medium ${text}`} /> : null}
      {tone === "partial" ? (
        <p className={`mt-1 text-sm font-semibold ${text}`} data-testid="upload-counts">
          {importedAndSkipped(stats)}
        </p>
      ) : null}
      {tone === "failed" && result.error && result.error !== result.message ? (
        <p className="mt-2 font-medium text-red-900">{result.error}</p>
      ) : null}
      {result.message ? <p className={`mt-2 text-sm ${text}`}>{result.message}</p> : null}
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Total Processed" value={stats.total_processed.toLocaleString("en-US")} />
        <Stat label="Successful" value={stats.successful.toLocaleString("en-US")} />
        <Stat label="Errors" value={stats.errors.toLocaleString("en-US")} />
        <Stat label="Processing Time" value={`${stats.processing_time_seconds}s`} />
      </dl>
      <ErrorList title="Parsing errors" items={result.details ?? []} total={stats.errors} testId="parsing-errors" />
      <ErrorList title="Errors" items={result.errors ?? []} testId="general-errors" />
    </section>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-slate-900">{value}</dd>
    </div>
  );
}
