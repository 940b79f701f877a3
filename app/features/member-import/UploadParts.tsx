import { useId, useState, type ReactNode } from "react";
import { CircleAlert, CircleCheck, Download, FileUp, LoaderCircle, TriangleAlert } from "lucide-react";
import { REVEAL_MARGIN, useRevealOnChange } from "~/components/admin/reveal";
import { MAX_UPLOAD_LABEL, MESSAGES, SHOWN_ERRORS, type UploadResponse, type UploadStats } from "./contract";
import { isCsvFile } from "./csv-file";
import type { UploadPhase } from "./upload-client";

export function TemplateButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="btn-outline" onClick={onClick}>
      <Download className="h-4 w-4" aria-hidden />
      Download CSV Template
    </button>
  );
}

/**
 * File chooser and drag-and-drop zone. A dropped file that is not CSV is ignored silently
 * (admin side, section 2); a chosen one is handed over for the page to judge.
 */
export function DropZone({
  onFile,
  disabled,
  label,
  children,
}: {
  onFile: (file: File) => void;
  disabled?: boolean;
  label: string;
  children?: ReactNode;
}) {
  const inputId = useId();
  const hintId = useId();
  const [over, setOver] = useState(false);
  return (
    <div
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (disabled) return;
        const file = e.dataTransfer.files[0];
        if (file && isCsvFile(file)) onFile(file);
      }}
      className={`flex flex-col items-center rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors ${
        over ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50"
      }`}
    >
      <FileUp className="h-8 w-8 text-brand-700" aria-hidden />
      <p className="mt-3 text-sm text-slate-700">Drag and drop your CSV file here, or</p>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        aria-describedby={hintId}
        className="peer sr-only"
        disabled={disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ""; // choosing the same file again still counts
          if (file) onFile(file);
        }}
      />
      {/* The input is visually hidden but keeps keyboard focus; its label shows the focus ring. */}
      <label
        htmlFor={inputId}
        className={`btn-primary mt-3 peer-focus-visible:ring-3 peer-focus-visible:ring-accent-500 peer-focus-visible:ring-offset-2 ${disabled ? "pointer-events-none opacity-60" : "cursor-pointer"}`}
      >
        {label}
      </label>
      <p id={hintId} className="mt-2 text-xs text-slate-600">
        CSV files only · up to {MAX_UPLOAD_LABEL}
      </p>
      {children}
    </div>
  );
}

/** Sending: a determinate bar; then the server works through the rows: an indeterminate one. */
export function UploadProgress({ phase }: { phase: UploadPhase | null }) {
  if (!phase) return null;
  const percent = phase.kind === "sending" && phase.total ? Math.min(100, Math.round((phase.loaded / phase.total) * 100)) : null;
  const label = phase.kind === "processing" ? "Processing the file on the server..." : `Uploading file... ${percent ?? 0}%`;
  return (
    <div className="mt-4" data-testid="upload-progress">
      <p className="mb-1 flex items-center gap-2 text-sm text-slate-700" aria-live="polite">
        <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
        {label}
      </p>
      <div
        role="progressbar"
        aria-label={phase.kind === "processing" ? "Processing" : "Upload progress"}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={phase.kind === "processing" ? undefined : (percent ?? 0)}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        {phase.kind === "processing" ? (
          <div className="h-full w-1/3 animate-[upload-indeterminate_1.2s_ease-in-out_infinite] rounded-full bg-brand-600" />
        ) : (
          <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent ?? 0}%` }} />
        )}
      </div>
    </div>
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
