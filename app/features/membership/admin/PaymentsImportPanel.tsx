import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { CircleAlert, CircleCheck, Columns3, FileSearch, Info, TriangleAlert, Upload } from "lucide-react";
import { AdminPanel } from "~/components/AdminPanel";
import { Announced } from "~/components/admin/Feedback";
import { REVEAL_MARGIN, useRevealOnChange } from "~/components/admin/reveal";
import { DropZone, isCsvFile, sizeInKb, UploadProgress, type UploadPhase } from "~/components/upload/FileUpload";
import { formatCents, formatLongDay } from "../coverage";
import { PAYMENTS_IMPORT_MAX_BYTES, PAYMENTS_IMPORT_MAX_LABEL, type PaymentsImportAnswer } from "../contract";
import { MAPPED_FIELD_LABELS, obviousMapping, PAYMENT_COLUMNS, PAYMENTS_CSV_MESSAGES, type ColumnMapping } from "../payments-csv";
import { sendPaymentsImport } from "./api-client";

export const PAYMENTS_IMPORT_TEXTS = {
  chooseCsv: "Please choose a CSV file (.csv).",
  tooLarge: "File is too large. The maximum size is 10MB.",
  readFailed: "The file could not be read. Choose it again.",
  failed: "The file could not be sent",
  mapTitle: "Which column holds what?",
  mapIntro:
    "This file is neither the site's own columns nor Stripe's payments export. Choose which of its columns holds each of these; the choice is kept for the next file with the same columns.",
  chooseColumn: "Choose a column",
  mapMissing: { certificate_number: "certificate number", amount: "amount", paid_on: "day paid", reference: "reference" } as Record<
    keyof ColumnMapping,
    string
  >,
  mapRepeated: "Choose a different column for each",
  previewMapped: "Preview with these columns",
  changeColumns: "Change columns",
  readStripe: "Read as Stripe's payments export: the member by the payment reference or the Membership ID in its metadata.",
  readSite: "Read as the site's own columns (certificate_number, amount, paid_on, reference).",
  leaveOut: (n: number) =>
    `Leave out ${n === 1 ? "the row" : `the ${n.toLocaleString("en-US")} rows`} that ${n === 1 ? "names" : "name"} no member and cannot be recorded (payments that are not dues)`,
  leaveOutHint: "A row that names a member and has a problem still stops the file.",
  leftOutTitle: (n: number) => `Left out: not dues (${n.toLocaleString("en-US")})`,
  readMapped: (mapping: ColumnMapping) =>
    `Read with the columns chosen for this file's columns: ${PAYMENT_COLUMNS.map((f) => `${MAPPED_FIELD_LABELS[f]} from "${mapping[f]}"`).join(", ")}.`,
} as const;

type Report = PaymentsImportAnswer["report"];
type Outcome =
  | { kind: "preview"; message: string; report: Report }
  | { kind: "applied"; message: string; report: Report }
  | { kind: "refused"; message: string; problemRows: Report["problemRows"] };

/**
 * Import payments (CSV): the payment portal's export (certificate_number, amount, paid_on,
 * reference) is previewed first (rows matched to members, unknown certificates, references
 * already recorded, bad rows with their line), then applied all or nothing. A reference is
 * recorded once, so the same file twice records nothing new.
 */
export function PaymentsImportPanel() {
  const [file, setFile] = useState<{ name: string; size: number; text: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [sendingApply, setSendingApply] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** The file's columns, when staff may map them (a file neither the site's nor Stripe's), and the mapping chosen. */
  const [columns, setColumns] = useState<string[] | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [mappingOpen, setMappingOpen] = useState(false);
  /** Staff chose to leave out the Stripe rows that name no member (not dues). */
  const [leaveOut, setLeaveOut] = useState(false);
  const sending = useRef(false);
  const busy = phase !== null;

  async function choose(next: File) {
    setOutcome(null);
    setFile(null);
    setColumns(null);
    setMapping(null);
    setMappingOpen(false);
    setLeaveOut(false);
    if (!isCsvFile(next)) return setNotice(PAYMENTS_IMPORT_TEXTS.chooseCsv);
    if (next.size > PAYMENTS_IMPORT_MAX_BYTES) return setNotice(PAYMENTS_IMPORT_TEXTS.tooLarge);
    try {
      const text = await next.text();
      setNotice(null);
      setFile({ name: next.name, size: next.size, text });
    } catch {
      setNotice(PAYMENTS_IMPORT_TEXTS.readFailed);
    }
  }

  async function send(apply: boolean, chosen: ColumnMapping | null = mapping, leavingOut = leaveOut) {
    if (!file || sending.current) return;
    sending.current = true;
    setSendingApply(apply);
    setPhase({ kind: "sending", loaded: 0, total: file.text.length });
    try {
      const answer = await sendPaymentsImport(file.text, apply, setPhase, chosen, leavingOut);
      const body = answer.body;
      if (body && body.success) {
        setOutcome({ kind: body.applied ? "applied" : "preview", message: body.message, report: body.report });
        const format = body.report.format;
        // A mapped file (chosen now, or kept from before): its mapping goes with Apply, and can be changed.
        setMapping(format.mapping);
        setColumns(format.columns ?? null);
        setMappingOpen(false);
      } else {
        const details =
          body && !body.success ? (body.details as { problems?: Report["problemRows"]; columns?: string[] } | undefined) : undefined;
        if (details?.columns?.length && !chosen) {
          // A file whose columns are not known: the mapping step, no refusal (nothing was tried yet).
          setColumns(details.columns);
          setMapping(null);
          setMappingOpen(true);
          setOutcome(null);
          return;
        }
        if (details?.columns?.length) {
          setColumns(details.columns);
          setMappingOpen(true);
        }
        setOutcome({
          kind: "refused",
          message: body && !body.success ? body.error : `${PAYMENTS_IMPORT_TEXTS.failed}: the server answered ${answer.status}`,
          problemRows: details?.problems ?? [],
        });
      }
    } catch (err) {
      setOutcome({
        kind: "refused",
        message: `${PAYMENTS_IMPORT_TEXTS.failed}: ${err instanceof Error ? err.message : String(err)}`,
        problemRows: [],
      });
    } finally {
      sending.current = false;
      setPhase(null);
    }
  }

  const canApply = outcome?.kind === "preview" && outcome.report.problems === 0 && outcome.report.toRecord > 0;
  return (
    <AdminPanel
      title="Import payments (CSV)"
      description="Record the payments of the payment portal's export at once: preview the file, then apply it."
    >
      <div className="grid gap-6 lg:grid-cols-5">
        <aside
          className="min-w-0 rounded-xl border border-brand-100 bg-brand-50 p-5 text-sm text-slate-800 lg:col-span-2"
          aria-labelledby="payments-howto"
        >
          <h3 id="payments-howto" className="flex items-center gap-2 text-base font-semibold text-brand-900">
            <Info className="h-5 w-5" aria-hidden />
            The file
          </h3>
          <ol className="mt-3 list-decimal space-y-2 pl-5">
            <li>
              The first line names the columns <code className="font-mono">certificate_number</code>,{" "}
              <code className="font-mono">amount</code>, <code className="font-mono">paid_on</code> and{" "}
              <code className="font-mono">reference</code> (an optional <code className="font-mono">method</code>: card, ach, check or
              other; card when left out).
            </li>
            <li>Amounts in dollars (19.95); days written YYYY-MM-DD or MM/DD/YYYY.</li>
            <li>
              Stripe&apos;s payments export is read as downloaded (Payments, Export): the member is found by the payment reference or the
              Membership ID in its metadata, never by name or e-mail; failed payments are skipped; a refunded amount is recorded as a refund
              of its payment; a row that names no member and cannot be recorded (another currency, another product) may be left out.
            </li>
            <li>Another portal&apos;s file: choose which of its columns holds what; the choice is kept for its next file.</li>
            <li>A reference already recorded is skipped, so the same file imported twice records nothing new.</li>
            <li>If any row has a problem, nothing is recorded: correct the file and preview it again.</li>
          </ol>
        </aside>
        <div className="min-w-0 lg:col-span-3">
          <DropZone onFile={(f) => void choose(f)} disabled={busy} label="Choose payments CSV" limitLabel={PAYMENTS_IMPORT_MAX_LABEL} />
          {notice ? (
            <p role="alert" className="field-error mt-3">
              {notice}
            </p>
          ) : null}
          {file ? (
            <p className="mt-4 text-sm text-slate-800" data-testid="payments-file">
              <span className="font-semibold">{file.name}</span> <span className="text-slate-600">({sizeInKb(file.size)})</span>
            </p>
          ) : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <button type="button" className="btn-outline" onClick={() => void send(false)} disabled={!file || busy}>
              <FileSearch className="h-4 w-4" aria-hidden />
              {busy && !sendingApply ? "Previewing..." : "Preview"}
            </button>
            <button type="button" className="btn-primary" onClick={() => void send(true)} disabled={!canApply || busy}>
              <Upload className="h-4 w-4" aria-hidden />
              {busy && sendingApply ? "Applying..." : "Apply"}
            </button>
          </div>
          <UploadProgress phase={phase} />
          {columns && !mappingOpen && mapping ? (
            <button type="button" className="btn-outline mt-4" onClick={() => setMappingOpen(true)} disabled={busy}>
              <Columns3 className="h-4 w-4" aria-hidden />
              {PAYMENTS_IMPORT_TEXTS.changeColumns}
            </button>
          ) : null}
          {outcome?.kind === "preview" && (outcome.report.mayLeaveOut > 0 || outcome.report.leftOut > 0) ? (
            <div className="mt-4 text-sm text-slate-800">
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 shrink-0"
                  checked={leaveOut}
                  disabled={busy}
                  onChange={(e) => {
                    setLeaveOut(e.target.checked);
                    void send(false, mapping, e.target.checked);
                  }}
                />
                <span>{PAYMENTS_IMPORT_TEXTS.leaveOut(outcome.report.mayLeaveOut || outcome.report.leftOut)}</span>
              </label>
              <p className="mt-1 pl-6 text-slate-700">{PAYMENTS_IMPORT_TEXTS.leaveOutHint}</p>
            </div>
          ) : null}
          {columns && mappingOpen ? (
            <ColumnMapper
              columns={columns}
              initial={mapping ?? obviousMapping(columns)}
              busy={busy}
              onPreview={(chosen) => {
                setMapping(chosen);
                void send(false, chosen);
              }}
            />
          ) : null}
        </div>
      </div>
      <Announced alert={outcome?.kind === "refused"}>
        {outcome ? (
          <ImportOutcome outcome={outcome} />
        ) : columns && mappingOpen ? (
          // The mapping step is no refusal: said politely, once, where it appears.
          <p className="sr-only">{PAYMENTS_IMPORT_TEXTS.mapTitle}</p>
        ) : null}
      </Announced>
    </AdminPanel>
  );
}

const TONES = {
  good: { box: "border-green-200 bg-green-50", text: "text-green-900", Icon: CircleCheck },
  warn: { box: "border-amber-300 bg-amber-50", text: "text-amber-950", Icon: TriangleAlert },
  bad: { box: "border-red-200 bg-red-50", text: "text-red-900", Icon: CircleAlert },
};

function ImportOutcome({ outcome }: { outcome: Outcome }) {
  const ref = useRevealOnChange<HTMLElement>(outcome);
  const report = outcome.kind === "refused" ? null : outcome.report;
  const tone =
    outcome.kind === "refused" || (report && report.problems > 0)
      ? "bad"
      : outcome.kind === "applied"
        ? "good"
        : report?.toRecord
          ? "good"
          : "warn";
  const { box, text, Icon } = TONES[tone];
  const heading = outcome.kind === "preview" ? "Preview" : outcome.kind === "applied" ? "Payments recorded" : "Nothing recorded";
  const problems = report?.problemRows ?? (outcome.kind === "refused" ? outcome.problemRows : []);
  const unknown = problems.filter((p) => p.message === PAYMENTS_CSV_MESSAGES.unknownCertificate);
  const bad = problems.filter((p) => p.message !== PAYMENTS_CSV_MESSAGES.unknownCertificate);
  return (
    <section
      ref={ref}
      aria-labelledby="payments-result-title"
      data-testid="payments-result"
      data-kind={outcome.kind}
      className={`mt-6 rounded-xl border p-5 ${REVEAL_MARGIN} ${box}`}
    >
      <h3 id="payments-result-title" className={`flex items-center gap-2 text-lg font-semibold ${text}`}>
        <Icon className="h-5 w-5" aria-hidden />
        {heading}
      </h3>
      <p className={`mt-1 text-sm font-medium ${text}`} data-testid="payments-message">
        {outcome.message}
      </p>
      {report ? (
        <p className="mt-1 text-sm text-slate-800" data-testid="payments-format">
          {report.format.kind === "stripe"
            ? PAYMENTS_IMPORT_TEXTS.readStripe
            : report.format.kind === "mapped" && report.format.mapping
              ? PAYMENTS_IMPORT_TEXTS.readMapped(report.format.mapping)
              : PAYMENTS_IMPORT_TEXTS.readSite}
        </p>
      ) : null}
      {report ? (
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Stat label="Rows in file" value={report.totalRows} />
          <Stat label={outcome.kind === "applied" ? "Recorded" : "To record"} value={report.toRecord} />
          <Stat label="Already recorded" value={report.skipped} />
          <Stat label="Problems" value={report.problems} />
        </dl>
      ) : null}
      {report && report.matchedRows.length && outcome.kind === "preview" ? (
        <RowList
          title={`Matched (${report.toRecord.toLocaleString("en-US")})`}
          testId="payments-matched"
          more={report.toRecord - report.matchedRows.length}
        >
          {report.matchedRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: {r.certificate}
              {r.name ? ` (${r.name})` : ""}, {formatCents(r.amountCents)} on {formatLongDay(r.paidOn)}, reference {r.reference}
              {r.refundCents ? `, ${formatCents(r.refundCents)} refunded` : ""}
            </li>
          ))}
        </RowList>
      ) : null}
      {unknown.length ? (
        <RowList title="Unknown certificates" testId="payments-unknown">
          {unknown.map((p) => (
            <li key={p.line}>
              Line {p.line}: {p.certificate ? `${p.certificate} (${p.message})` : p.message}
            </li>
          ))}
        </RowList>
      ) : null}
      {bad.length ? (
        <RowList title="Bad rows" testId="payments-problems" more={(report?.problems ?? problems.length) - problems.length}>
          {bad.map((p) => (
            <li key={p.line}>
              Line {p.line}: {p.certificate ? `${p.certificate}: ` : ""}
              {p.message}
            </li>
          ))}
        </RowList>
      ) : null}
      {report && report.refundRows.length ? (
        <RowList
          title={`Refunds (${report.refunds.toLocaleString("en-US")})`}
          testId="payments-refunds"
          more={report.refunds - report.refundRows.length}
        >
          {report.refundRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: {formatCents(r.refundCents)} refunded of reference {r.reference}
            </li>
          ))}
        </RowList>
      ) : null}
      {report && report.notPaidRows.length ? (
        <RowList title="No money taken (skipped)" testId="payments-not-paid" more={report.notPaid - report.notPaidRows.length}>
          {report.notPaidRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: reference {r.reference}, {r.reason}
            </li>
          ))}
        </RowList>
      ) : null}
      {report && report.leftOutRows.length ? (
        <RowList
          title={PAYMENTS_IMPORT_TEXTS.leftOutTitle(report.leftOut)}
          testId="payments-left-out"
          more={report.leftOut - report.leftOutRows.length}
        >
          {report.leftOutRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: reference {r.reference}, {r.reason}
            </li>
          ))}
        </RowList>
      ) : null}
      {report && report.skippedRows.length ? (
        <RowList title="Already recorded (skipped)" testId="payments-skipped" more={report.skipped - report.skippedRows.length}>
          {report.skippedRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: reference {r.reference}
            </li>
          ))}
        </RowList>
      ) : null}
    </section>
  );
}

/**
 * For each of the four fields, which of the file's columns holds it: labelled selects, required
 * (marked), checked before the file is sent again.
 */
function ColumnMapper({
  columns,
  initial,
  busy,
  onPreview,
}: {
  columns: string[];
  initial: ColumnMapping;
  busy: boolean;
  onPreview: (mapping: ColumnMapping) => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<ColumnMapping>(() => ({
    ...initial,
    ...Object.fromEntries(PAYMENT_COLUMNS.filter((f) => !columns.includes(initial[f])).map((f) => [f, ""])),
  }));
  const [errors, setErrors] = useState<Partial<Record<keyof ColumnMapping, string>>>({});
  function submit(e: FormEvent) {
    e.preventDefault();
    const next: Partial<Record<keyof ColumnMapping, string>> = {};
    for (const f of PAYMENT_COLUMNS) {
      if (!chosen[f]) next[f] = `Choose the column that holds the ${PAYMENTS_IMPORT_TEXTS.mapMissing[f]}`;
      else if (PAYMENT_COLUMNS.some((g) => g !== f && chosen[g] === chosen[f])) next[f] = PAYMENTS_IMPORT_TEXTS.mapRepeated;
    }
    setErrors(next);
    const first = PAYMENT_COLUMNS.find((f) => next[f]);
    if (first) return document.getElementById(`${id}-${first}`)?.focus();
    onPreview(chosen);
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="payments-mapping"
      className="mt-6 rounded-xl border border-brand-100 bg-white p-4"
    >
      <h3 id={`${id}-title`} className="flex items-center gap-2 text-base font-semibold text-brand-900">
        <Columns3 className="h-5 w-5" aria-hidden />
        {PAYMENTS_IMPORT_TEXTS.mapTitle}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{PAYMENTS_IMPORT_TEXTS.mapIntro}</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {PAYMENT_COLUMNS.map((f) => (
          <div key={f} className="min-w-0">
            <label htmlFor={`${id}-${f}`} className="field-label">
              {MAPPED_FIELD_LABELS[f]}
              <span className="text-red-700" aria-hidden>
                {" "}
                *
              </span>
            </label>
            <select
              id={`${id}-${f}`}
              className="field-input"
              required
              aria-invalid={errors[f] ? true : undefined}
              aria-describedby={errors[f] ? `${id}-${f}-error` : undefined}
              value={chosen[f]}
              onChange={(e) => {
                setChosen((c) => ({ ...c, [f]: e.target.value }));
                setErrors((es) => ({ ...es, [f]: undefined }));
              }}
            >
              <option value="">{PAYMENTS_IMPORT_TEXTS.chooseColumn}</option>
              {columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            {errors[f] ? (
              <p id={`${id}-${f}-error`} className="field-error">
                {errors[f]}
              </p>
            ) : null}
          </div>
        ))}
      </div>
      <button type="submit" className="btn-primary mt-4" disabled={busy}>
        <FileSearch className="h-4 w-4" aria-hidden />
        {PAYMENTS_IMPORT_TEXTS.previewMapped}
      </button>
    </form>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-slate-900">{value.toLocaleString("en-US")}</dd>
    </div>
  );
}

function RowList({ title, testId, more = 0, children }: { title: string; testId: string; more?: number; children: ReactNode }) {
  return (
    <div className="mt-4" data-testid={testId}>
      <h4 id={`${testId}-title`} className="text-sm font-semibold text-slate-900">
        {title}
      </h4>
      {/* A focusable region, so a long list scrolls from the keyboard. */}
      <div
        role="region"
        tabIndex={0}
        aria-labelledby={`${testId}-title`}
        className="mt-2 max-h-64 overflow-auto rounded-md bg-white/60 p-2"
      >
        <ul className="list-disc space-y-1 pl-5 text-sm break-words text-slate-800">{children}</ul>
      </div>
      {more > 0 ? <p className="mt-2 text-sm text-slate-700">... and {more.toLocaleString("en-US")} more</p> : null}
    </div>
  );
}
