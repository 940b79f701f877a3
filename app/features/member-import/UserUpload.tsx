import { useEffect, useRef, useState } from "react";
import { CircleAlert, CircleCheck, Upload } from "lucide-react";
import { DATE_FORMATS_TEXT } from "./birthdate";
import { MAX_UPLOAD_LABEL, MESSAGES } from "./contract";
import { checkCsv, isCsvFile, isTooLarge, sizeInKb, type CsvCheck } from "./csv-file";
import { downloadCsv, SHORT_TEMPLATE } from "./templates";
import { DropZone, ErrorList, TemplateButton, UploadProgress } from "./UploadParts";
import { sendUpload, type UploadPhase } from "./upload-client";

type Banner = { kind: "success" | "error"; text: string; details?: string[]; totalErrors?: number };

const PREVIEW_ROWS = 5;

/** /admin/users ('User Upload'): the multipart variant of the member CSV import. */
export function UserUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [check, setCheck] = useState<CsvCheck | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  const uploading = phase !== null;

  function clear() {
    setFile(null);
    setCheck(null);
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
    try {
      setCheck(checkCsv(await next.text()));
    } catch (err) {
      setCheck({ ok: false, error: `Error parsing CSV: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  async function upload() {
    if (!file || !check?.ok) {
      setBanner({ kind: "error", text: MESSAGES.selectValidFirst });
      return;
    }
    setBanner(null);
    setPhase({ kind: "sending", loaded: 0, total: file.size });
    try {
      const form = new FormData();
      form.append("csvFile", file, file.name);
      const { ok, body } = await sendUpload(form, setPhase);
      if (ok && body) {
        setBanner({ kind: "success", text: body.message, details: body.details, totalErrors: body.stats?.errors });
        clear();
      } else {
        const details = Array.isArray(body?.details) ? body.details.join("; ") : body?.details;
        const error = body?.error ?? MESSAGES.uploadFailed;
        setBanner({ kind: "error", text: details ? `${error}: ${details}` : error });
      }
    } catch (err) {
      setBanner({ kind: "error", text: `Upload failed: ${err instanceof Error && err.message ? err.message : "Unknown error"}` });
    } finally {
      setPhase(null);
    }
  }

  const header = check?.header ?? [];
  const rows = check?.rows ?? [];
  return (
    <section className="container-page py-10">
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Admin</p>
      <h1 className="mt-1 font-serif text-3xl font-bold text-brand-900">User Upload</h1>
      <p className="mt-2 text-slate-600">Upload a CSV file of members with their certificate numbers and birthdates.</p>

      {banner ? <StatusBanner banner={banner} /> : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:col-span-2">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-brand-900">Select a CSV file</h2>
            <TemplateButton onClick={() => downloadCsv(SHORT_TEMPLATE)} />
          </div>
          <div className="mt-4">
            <DropZone onFile={(f) => void choose(f)} disabled={uploading} label="Choose File" />
          </div>

          {file ? (
            <div className="mt-5" data-testid="file-summary">
              <p className="text-sm text-slate-800">
                <span className="font-semibold">{file.name}</span> <span className="text-slate-600">({sizeInKb(file.size)})</span>
              </p>
              {check?.ok ? (
                <p className="mt-2 flex items-center gap-2 text-sm font-medium text-green-800" role="status">
                  <CircleCheck className="h-4 w-4" aria-hidden />
                  Valid CSV with {check.records} user records
                </p>
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
              <div className="overflow-x-auto rounded-md border border-slate-200">
                <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="csv-preview">
                  <caption className="sr-only">Preview of the CSV file</caption>
                  <thead className="bg-slate-50">
                    <tr>
                      {header.map((cell, i) => (
                        <th key={i} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap text-slate-800">
                          {cell}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {rows.slice(0, PREVIEW_ROWS).map((row, r) => (
                      <tr key={r}>
                        {header.map((_, c) => (
                          <td key={c} className="px-3 py-2 whitespace-nowrap text-slate-700">
                            {row[c] ?? ""}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {rows.length > PREVIEW_ROWS ? (
                <p className="mt-2 text-xs text-slate-600">
                  Showing first {PREVIEW_ROWS} rows. Total rows: {rows.length}
                </p>
              ) : null}
            </div>
          ) : null}

          <button type="button" className="btn-primary mt-5 w-full sm:w-auto" onClick={() => void upload()} disabled={uploading}>
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
            <li>Birthdate formats: {DATE_FORMATS_TEXT}</li>
            <li>Certificate numbers should be unique</li>
            <li>Maximum file size: {MAX_UPLOAD_LABEL}</li>
          </ul>
        </aside>
      </div>
    </section>
  );
}

function StatusBanner({ banner }: { banner: Banner }) {
  const ok = banner.kind === "success";
  const ref = useRef<HTMLDivElement>(null);
  // The banner sits above the form: bring it into view when the button that caused it is far below.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [banner]);
  const Icon = ok ? CircleCheck : CircleAlert;
  return (
    <div
      ref={ref}
      role={ok ? "status" : "alert"}
      data-testid="upload-status"
      className={`mt-6 rounded-lg border px-4 py-3 text-sm ${ok ? "border-green-200 bg-green-50 text-green-900" : "border-red-200 bg-red-50 text-red-900"}`}
    >
      <p className="flex items-start gap-2">
        <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
        <span>
          <span className="font-semibold">{ok ? "Success" : "Error"}:</span> {banner.text}
        </span>
      </p>
      {banner.details?.length ? (
        <ErrorList title="Rows not imported" items={banner.details} total={banner.totalErrors} testId="row-errors" />
      ) : null}
    </div>
  );
}
