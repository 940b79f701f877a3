import { useId, useRef, useState } from "react";
import { Info, Upload } from "lucide-react";
import { DATE_FORMATS_TEXT } from "./birthdate";
import { MAX_UPLOAD_LABEL, MESSAGES, type UploadResponse } from "./contract";
import { Announced } from "~/components/admin/Feedback";
import { firstLines, isTooLarge } from "./csv-file";
import { isCsvFile, sizeInKb } from "~/components/upload/FileUpload";
import { downloadCsv, FULL_TEMPLATE } from "./templates";
import { ResultPanel, TemplateButton, uploadTone } from "./UploadParts";
import { DropZone, UploadProgress } from "~/components/upload/FileUpload";
import { failure, onUploadClick, sendUpload, unknownMessage } from "./upload-client";
import type { UploadPhase } from "~/components/upload/FileUpload";

const PREVIEW_BYTES = 64 * 1024;

/** /admin/upload ('Admin User Upload'): the JSON variant of the member CSV import. */
export function AdminUserUpload() {
  const passwordId = useId();
  const passwordHint = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string[]>([]);
  const [password, setPassword] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [result, setResult] = useState<UploadResponse | null>(null);
  // Set on the click itself, before anything is awaited: a second click never starts a second upload.
  const sending = useRef(false);
  const uploading = phase !== null;

  async function choose(next: File) {
    setResult(null);
    // The chooser's "All files" lets anything through: a file that is not CSV is refused as on /admin/users.
    if (!isCsvFile(next)) {
      setFile(null);
      setPreview([]);
      setNotice(MESSAGES.selectCsv);
      return;
    }
    if (isTooLarge(next)) {
      setFile(null);
      setPreview([]);
      setNotice(MESSAGES.tooLarge);
      return;
    }
    setNotice(null);
    setFile(next);
    try {
      setPreview(firstLines(await next.slice(0, PREVIEW_BYTES).text()));
    } catch {
      setPreview([]);
      setNotice(MESSAGES.readFailed);
    }
  }

  async function upload() {
    if (!file) {
      setNotice(MESSAGES.selectFirst);
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setNotice(null);
    setResult(null);
    setPhase({ kind: "sending", loaded: 0, total: file.size });
    try {
      let csvContent: string;
      try {
        csvContent = await file.text();
      } catch {
        setResult(failure(MESSAGES.uploadFailed, MESSAGES.readFailed));
        return;
      }
      const body = JSON.stringify({ csvContent, filename: file.name, ...(password ? { adminPassword: password } : {}) });
      const answer = await sendUpload(body, setPhase);
      setResult(answer.body ?? failure(MESSAGES.uploadFailed, `The server answered ${answer.status} without a result`));
    } catch (err) {
      setResult(failure(MESSAGES.uploadFailed, unknownMessage(err)));
    } finally {
      sending.current = false;
      setPhase(null);
    }
  }

  return (
    <section className="container-page py-10">
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Admin</p>
      <h1 className="mt-1 font-serif text-3xl font-bold text-brand-900">Admin User Upload</h1>
      <p className="mt-2 text-slate-600">
        Import members in bulk from a CSV file. Members then sign in with their certificate number and birthdate.
      </p>

      <div className="mt-6 grid gap-6 lg:grid-cols-5">
        <aside
          className="min-w-0 rounded-xl border border-brand-100 bg-brand-50 p-5 text-sm text-slate-800 lg:col-span-2"
          aria-labelledby="instructions-title"
        >
          <h2 id="instructions-title" className="flex items-center gap-2 text-base font-semibold text-brand-900">
            <Info className="h-5 w-5" aria-hidden />
            Instructions
          </h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5">
            <li>
              The first line names the columns: <code className="font-mono">certificate_number</code> and{" "}
              <code className="font-mono">birthdate</code> are required; <code className="font-mono">first_name</code>,{" "}
              <code className="font-mono">last_name</code> and <code className="font-mono">email</code> are optional.
            </li>
            <li>
              Associations moving in may add a plan: <code className="font-mono">plan</code> (monthly or annual),{" "}
              <code className="font-mono">coverage_amount</code> in dollars and <code className="font-mono">paid_through</code> (a date in
              the birthdate&apos;s formats), all optional. A member with a paid-through date is covered through it; without one they await
              their first payment. A blank cell keeps what the member&apos;s plan has.
            </li>
            <li>Birthdates may be written {DATE_FORMATS_TEXT.replace("YYYY-MM-DD", "YYYY-MM-DD (preferred)")}.</li>
            <li>Certificate numbers should be unique. A certificate number already on file updates that member's birthdate and name.</li>
            <li>Rows with errors are skipped and listed with their line number; the other rows are imported.</li>
            <li>Members sign in with their certificate number and their birthdate as MMDDYY.</li>
            <li>Maximum file size: {MAX_UPLOAD_LABEL}.</li>
          </ol>
          <div className="mt-4">
            <TemplateButton onClick={() => downloadCsv(FULL_TEMPLATE)} />
          </div>
        </aside>

        <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:col-span-3">
          <div>
            <label htmlFor={passwordId} className="field-label">
              Admin Password <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <input
              id={passwordId}
              type="password"
              autoComplete="current-password"
              className="field-input"
              placeholder="Enter admin password if required"
              aria-describedby={passwordHint}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={uploading}
            />
            <p id={passwordHint} className="mt-1 text-xs text-slate-600">
              Enter admin password if required. When given, it is checked against your account before importing.
            </p>
          </div>

          <div className="mt-5">
            <DropZone onFile={(f) => void choose(f)} disabled={uploading} label="Choose CSV File" limitLabel={MAX_UPLOAD_LABEL} />
          </div>

          {notice ? (
            <p role="alert" className="field-error mt-3">
              {notice}
            </p>
          ) : null}

          {file ? (
            <div className="mt-5" data-testid="file-summary">
              <p className="text-sm text-slate-800">
                <span className="font-semibold">{file.name}</span> <span className="text-slate-600">({sizeInKb(file.size)})</span>
              </p>
              <h2 className="mt-3 text-sm font-semibold text-slate-900">Preview (first 5 lines)</h2>
              <pre
                data-testid="file-preview"
                role="region"
                tabIndex={0}
                aria-label="Preview of the first 5 lines"
                className="mt-1 max-h-48 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-5 text-slate-100"
              >
                {preview.join("\n")}
              </pre>
            </div>
          ) : null}

          <button
            type="button"
            className="btn-primary mt-5 w-full sm:w-auto"
            onClick={(e) => onUploadClick(e, upload)}
            disabled={!file || uploading}
          >
            <Upload className="h-4 w-4" aria-hidden />
            {uploading ? "Uploading..." : "Upload Users"}
          </button>
          <UploadProgress phase={phase} />
        </div>
      </div>

      <Announced alert={result !== null && uploadTone(result) === "failed"}>{result ? <ResultPanel result={result} /> : null}</Announced>
    </section>
  );
}
