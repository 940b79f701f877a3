import { useId, useState, type ReactNode } from "react";
import { FileUp, LoaderCircle } from "lucide-react";

/**
 * Choosing a CSV file and watching it go up, for every import of the admin (members, payments):
 * the drop zone with its file chooser, and the progress of the upload and then of the server.
 */

/** A dropped or chosen file counts as CSV by its name or its type. */
export function isCsvFile(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === "text/csv";
}

/** Size in KB with two decimals, as the upload pages show it. */
export const sizeInKb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** Where an upload stands: its bytes going up, then the server at work on them. */
export type UploadPhase = { kind: "sending"; loaded: number; total: number } | { kind: "processing" };

/**
 * File chooser and drag-and-drop zone. A dropped file that is not CSV is ignored silently
 * (admin side, section 2); a chosen one is handed over for the page to judge.
 */
export function DropZone({
  onFile,
  disabled,
  label,
  limitLabel,
  children,
}: {
  onFile: (file: File) => void;
  disabled?: boolean;
  label: string;
  /** The largest file the server takes, as people read it ("10MB"). */
  limitLabel: string;
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
        CSV files only · up to {limitLabel}
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
