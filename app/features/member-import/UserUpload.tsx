import { useRef, useState } from "react";
import { CircleAlert, CircleCheck, TriangleAlert, Upload } from "lucide-react";
import { Announced } from "~/components/admin/Feedback";
import { REVEAL_MARGIN, useRevealOnChange } from "~/components/admin/reveal";
import { todayUtc } from "~/platform/dates";
import { DATE_FORMATS_TEXT } from "./birthdate";
import { MAX_UPLOAD_LABEL, MESSAGES, type UploadStats } from "./contract";
import { checkCsv, isTooLarge, type CsvCheck } from "./csv-file";
import { isCsvFile, sizeInKb } from "~/components/upload/FileUpload";
import { parseMemberCsv, type PreviewRow, type RowError } from "./parse-csv";
import { downloadCsv, SHORT_TEMPLATE } from "./templates";
import { ErrorList, importedAndSkipped, RepeatedNote, TemplateButton, TONE_STYLES } from "./UploadParts";
import { DropZone, UploadProgress } from "~/components/upload/FileUpload";
import { onUploadClick, sendUpload } from "./upload-client";
import type { UploadPhase } from "~/components/upload/FileUpload";

type Banner = { kind: "success" | "error"; text: string; details?: string[]; stats?: UploadStats; repeated?: boolean };

const PREVIEW_ROWS = 5;

/** What the import will make of a valid file, by the server's own row rules: the first rows and every row it will refuse. */
interface ImportPreview {
  header: string[];
  rows: PreviewRow[];
  refused: RowError[];
}

function previewImport(text: string): ImportPreview | null {
  const parsed = parseMemberCsv(text, todayUtc(), { preview: PREVIEW_ROWS });
  return parsed.ok ? { header: parsed.headerCells, rows: parsed.preview, refused: parsed.rowErrors } : null;
}

/** /admin/users ('User Upload'): the multipart variant of the member CSV import. */
export function UserUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [check, setCheck] = useState<CsvCheck | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [importPreview, setImportPreview] = useState<ImportPreview | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  // Set on the click itself: a second click never starts a second upload.
  const sending = useRef(false);
  const uploading = phase !== null;

  function clear() {
    setFile(null);
    setCheck(null);
    setImportPreview(null);
  }

  async function choose(next: File) {
    setBanner(null);
    if (!isCsvFile(next)) {
      clear();
      setBanner({ kind: "error", text: MESSAGES.selectCsv });
      return;
    }
    if (isTooLarge(next)) {
      clear();
      setBanner({ kind: "error", text: MESSAGES.tooLarge });
      return;
    }
    setFile(next);
    setImportPreview(null);
    try {
      const text = await next.text();
      const checked = checkCsv(text);
      setCheck(checked);
      if (checked.ok) setImportPreview(previewImport(text));
    } catch (err) {
      setCheck({ ok: false, error: `Error parsing CSV: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  async function upload() {
    if (!file || !check?.ok) {
      setBanner({ kind: "error", text: MESSAGES.selectValidFirst });
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setBanner(null);
    setPhase({ kind: "sending", loaded: 0, total: file.size });
    try {
      const form = new FormData();
      form.append("csvFile", file, file.name);
      const { ok, body } = await sendUpload(form, setPhase);
      if (ok && body) {
        setBanner({ kind: "success", text: body.message, details: body.details, stats: body.stats, repeated: body.repeated });
        clear();
      } else {
        const details = Array.isArray(body?.details) ? body.details.join("; ") : body?.details;
        const error = body?.error ?? MESSAGES.uploadFailed;
        setBanner({ kind: "error", text: details ? `${error}: ${details}` : error, repeated: body?.repeated });
      }
    } catch (err) {
      setBanner({ kind: "error", text: `Upload failed: ${err instanceof Error && err.message ? err.message : "Unknown error"}` });
    } finally {
      sending.current = false;
      setPhase(null);
    }
  }

  // A valid file is previewed as the import reads it, each row marked when it will be refused.
  const header = importPreview?.header ?? check?.header ?? [];
  const previewRows: PreviewRow[] =
    importPreview?.rows ?? (check?.rows ?? []).slice(0, PREVIEW_ROWS).map((cells, i) => ({ line: i + 2, cells, problem: null }));
  const totalRows = check?.rows?.length ?? 0;
  const refused = importPreview?.refused ?? [];
  const marksRows = previewRows.some((r) => r.problem !== null);
  return (
    <section className="container-page py-10">
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Admin</p>
      <h1 className="mt-1 font-serif text-3xl font-bold text-brand-900">User Upload</h1>
      <p className="mt-2 text-slate-600">Upload a CSV file of members with their certificate numbers and birthdates.</p>

      <Announced alert={banner?.kind === "error"}>{banner ? <StatusBanner banner={banner} /> : null}</Announced>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:col-span-2">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-brand-900">Select a CSV file</h2>
            <TemplateButton onClick={() => downloadCsv(SHORT_TEMPLATE)} />
          </div>
          <div className="mt-4">
            <DropZone onFile={(f) => void choose(f)} disabled={uploading} label="Choose File" limitLabel={MAX_UPLOAD_LABEL} />
          </div>

          {file ? (
            <div className="mt-5" data-testid="file-summary">
              <p className="text-sm text-slate-800">
                <span className="font-semibold">{file.name}</span> <span className="text-slate-600">({sizeInKb(file.size)})</span>
              </p>
              {check?.ok ? (
                <div role="status" data-testid="csv-check" data-refused={refused.length}>
                  <p className={`mt-2 flex items-center gap-2 text-sm font-medium ${refused.length ? "text-amber-900" : "text-green-800"}`}>
                    {refused.length ? <TriangleAlert className="h-4 w-4" aria-hidden /> : <CircleCheck className="h-4 w-4" aria-hidden />}
                    Valid CSV with {check.records} user records
                  </p>
                  {refused.length ? (
                    <p className="mt-1 text-sm font-semibold text-amber-900">
                      {refused.length === 1 ? "1 row" : `${refused.length.toLocaleString("en-US")} rows`} will be skipped by the import: see
                      the list below.
                    </p>
                  ) : null}
                </div>
              ) : check ? (
                <p className="field-error flex items-center gap-2" role="alert">
                  <CircleAlert className="h-4 w-4" aria-hidden />
                  {check.error}
                </p>
              ) : null}
            </div>
          ) : null}

          {file && header.length ? (
            <div className="mt-4">
              {/* A focusable region: on a phone the table scrolls sideways, from the keyboard too. */}
              <div role="region" tabIndex={0} aria-label="CSV preview" className="overflow-x-auto rounded-md border border-slate-200">
                <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="csv-preview">
                  <caption className="sr-only">Preview of the CSV file</caption>
                  <thead className="bg-slate-50">
                    <tr>
                      {header.map((cell, i) => (
                        <th key={i} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap text-slate-800">
                          {cell}
                        </th>
                      ))}
                      {marksRows ? (
                        <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap text-slate-800">
                          Will be skipped because
                        </th>
                      ) : null}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {previewRows.map((row) => (
                      <tr key={row.line} data-refused={row.problem !== null || undefined} className={row.problem ? "bg-red-50" : undefined}>
                        {header.map((_, c) => (
                          <td key={c} className={`px-3 py-2 whitespace-nowrap ${row.problem ? "text-red-950" : "text-slate-700"}`}>
                            {row.cells[c] ?? ""}
                          </td>
                        ))}
                        {marksRows ? (
                          <td className="min-w-48 px-3 py-2 text-red-900">
                            {row.problem ? (
                              <span className="flex items-start gap-1.5">
                                <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                                {row.problem}
                              </span>
                            ) : (
                              <span className="sr-only">Will be imported</span>
                            )}
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {totalRows > PREVIEW_ROWS ? (
                <p className="mt-2 text-xs text-slate-600">
                  Showing first {PREVIEW_ROWS} rows. Total rows: {totalRows}
                </p>
              ) : null}
              <ErrorList title="Rows that will be skipped" items={refused.map((e) => e.message)} testId="refused-rows" />
            </div>
          ) : null}

          <button
            type="button"
            className="btn-primary mt-5 w-full sm:w-auto"
            onClick={(e) => onUploadClick(e, upload)}
            disabled={uploading}
          >
            <Upload className="h-4 w-4" aria-hidden />
            {uploading ? "Processing..." : "Upload CSV"}
          </button>
          <UploadProgress phase={phase} />
        </div>

        <aside
          className="min-w-0 rounded-xl border border-brand-100 bg-brand-50 p-5 text-sm text-slate-800"
          aria-labelledby="requirements-title"
        >
          <h2 id="requirements-title" className="text-base font-semibold text-brand-900">
            CSV requirements
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-5">
            <li>
              Columns <code className="font-mono">certificate_number</code> and <code className="font-mono">birthdate</code> (header names
              are not case-sensitive)
            </li>
            <li>Optional columns: first_name, last_name, email</li>
            <li>Optional plan columns: plan (monthly or annual), coverage_amount (dollars), paid_through (a date)</li>
            <li>Birthdate formats: {DATE_FORMATS_TEXT}</li>
            <li>Certificate numbers should be unique</li>
            <li>Maximum file size: {MAX_UPLOAD_LABEL}</li>
          </ul>
        </aside>
      </div>
    </section>
  );
}

/**
 * The banner sits above the form: it is brought into view (clear of the sticky header) when the
 * button that caused it is far below. A success that skipped rows reads as a warning, headed
 * 'Partial Success'.
 */
function StatusBanner({ banner }: { banner: Banner }) {
  const ok = banner.kind === "success";
  const skipped = ok && (banner.stats?.errors ?? 0) > 0;
  const { box, text, Icon } = TONE_STYLES[!ok ? "failed" : skipped ? "partial" : "success"];
  const ref = useRevealOnChange<HTMLDivElement>(banner);
  return (
    <div
      ref={ref}
      data-testid="upload-status"
      data-tone={!ok ? "failed" : skipped ? "partial" : "success"}
      className={`mt-6 rounded-lg border px-4 py-3 text-sm ${REVEAL_MARGIN} ${box} ${text}`}
    >
      <p className="flex items-start gap-2">
        <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
        <span>
          <span className="font-semibold">{ok ? (skipped ? "Partial Success" : "Success") : "Error"}:</span> {banner.text}
        </span>
      </p>
      {banner.repeated ? <RepeatedNote className="mt-1 pl-7 font-medium" /> : null}
      {skipped && banner.stats ? (
        <p className="mt-1 pl-7 font-semibold" data-testid="upload-counts">
          {importedAndSkipped(banner.stats)}
        </p>
      ) : null}
      {banner.details?.length ? (
        <ErrorList title="Rows not imported" items={banner.details} total={banner.stats?.errors} testId="row-errors" />
      ) : null}
    </div>
  );
}
