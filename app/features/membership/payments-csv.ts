import Papa from "papaparse";
import { normalizeHeader } from "~/platform/csv";
import { normalizeCertificate } from "~/features/auth/normalize";
import { isIsoDate } from "~/platform/dates";
import { isOneLine } from "~/platform/text-fields";
import { firstUnclosedRow, unclosedQuoteMessage } from "~/platform/csv";
import { EARLIEST_MEMBERSHIP_DAY, MAX_PAYMENT_CENTS, PAYMENT_METHODS, parseCents, type PaymentMethod } from "./contract";
import { formatLongDay, todayIn } from "./coverage";

/** The payment portal's export: these columns, named as the member import names its columns ("Paid On" is paid_on). */
export const PAYMENT_COLUMNS = ["certificate_number", "amount", "paid_on", "reference"] as const;

export const PAYMENTS_CSV_MESSAGES = {
  empty: "The file is empty",
  missingColumns: (missing: string[]) =>
    `The file's first row must name the columns certificate_number, amount, paid_on and reference (missing: ${missing.join(", ")})`,
  noRows: "The file has no payment rows",
  certificate: "certificate_number is missing",
  amount: "amount must be dollars and cents above $0.00, like 19.95",
  paidOn: "paid_on must be a date written YYYY-MM-DD or MM/DD/YYYY",
  /** From 1990 to `latest` (tomorrow, as people read it): as Record payment's Paid on. */
  paidOnRange: (latest: string) => `paid_on must be a day from ${formatLongDay(EARLIEST_MEMBERSHIP_DAY)} to ${formatLongDay(latest)}`,
  reference: "reference is missing, or longer than 100 characters, or not one line",
  method: `method must be one of ${PAYMENT_METHODS.join(", ")} (or left out)`,
  repeated: (line: number) => `reference is repeated from line ${line}`,
  /** The reference names another member's payment: a mistake in the file or in the ledger, not a re-import to skip. */
  referenceOfAnother: (certificate: string) =>
    `reference is already recorded for another member's payment (certificate number ${certificate}): check the file and that payment`,
  unknownCertificate: "no member has this certificate number",
  noPlan: "this member has no plan on record",
  /** A column mapping names a column the file does not have. */
  mappedColumnMissing: (field: string, column: string) => `The column "${column}" chosen for ${field} is not in the file`,
  mappingRepeated: "Choose a different column for each of certificate number, amount, paid on and reference",
} as const;

const STRIPE_ID_PROBLEM =
  "must be a Stripe id as Stripe writes it (pi_, ch_, in_ or py_ followed by letters and digits, at most 100 characters)";

/** Stripe's payments export (Payments, Export: the unified payments CSV), read as downloaded. */
export const STRIPE_EXPORT_MESSAGES = {
  /**
   * An id cell that is not an id as Stripe writes it (a spreadsheet formula, say): refused, so
   * the ledger stores a reference only as the provider wrote it.
   */
  providerId: (column: string) => `${column} ${STRIPE_ID_PROBLEM}`,
  amount: "Amount must be dollars and cents above $0.00, like 19.95",
  refunded: "Amount Refunded must be dollars and cents, no more than Amount",
  created: "Created date (UTC) must be a date and time written YYYY-MM-DD HH:MM:SS",
  createdRange: (latest: string) =>
    `Created date (UTC) must be a day from ${formatLongDay(EARLIEST_MEMBERSHIP_DAY)} to ${formatLongDay(latest)}`,
  currency: (currency: string) =>
    `currency is ${currency ? currency.toUpperCase() : "missing"}: only payments in US dollars are recorded (record it by hand if it was paid in dollars)`,
  status: (status: string) =>
    `Status "${status}" is not a payment the import records: check it in Stripe and record it by hand if it was paid`,
  notCaptured: "not captured (Captured is false): no money was taken",
  notPaid: (status: string) => `not paid (Status ${status})`,
  noMember:
    "no payment reference or Membership ID in the metadata (columns payment_reference (metadata), membership_id (metadata)): add the member's Membership ID to the payment's metadata in Stripe, or record it by hand. A payment is never matched by name or e-mail.",
  unknownReference: "no member has this payment reference",
  twoMembers: (certificate: string) =>
    `the payment reference and the Membership ID ${certificate} name different members: check the payment's metadata in Stripe`,
} as const;

/** How the file was read: the site's own four columns, Stripe's export, or other columns mapped by staff. */
export type PaymentsFileKind = "site" | "stripe" | "mapped";

/** The fields a mapping names a column for (the site's four columns). */
export type MappedField = (typeof PAYMENT_COLUMNS)[number];
/** Which of a file's columns (by its header's text) holds each field. */
export type ColumnMapping = Record<MappedField, string>;
export const MAPPED_FIELD_LABELS: Record<MappedField, string> = {
  certificate_number: "Certificate number",
  amount: "Amount",
  paid_on: "Paid on",
  reference: "Reference",
};

/** A column name with case and punctuation left out ("Paid-On", "paid_on" and "PAID ON" read alike). */
const looseName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The obvious columns of a file staff map: for each field, the one column whose name is the
 * field's or its label's, case and punctuation aside ("Amount ($)", "Certificate.Number",
 * "PaidOn"); left empty when no column, or more than one, is named so.
 */
export function obviousMapping(columns: string[]): ColumnMapping {
  const mapping = { certificate_number: "", amount: "", paid_on: "", reference: "" } as ColumnMapping;
  for (const field of PAYMENT_COLUMNS) {
    const names = new Set([looseName(field), looseName(MAPPED_FIELD_LABELS[field])]);
    const found = columns.filter((c) => names.has(looseName(c)));
    if (found.length === 1) mapping[field] = found[0];
  }
  return mapping;
}

/** Stripe's status words (its export writes them capitalised) for payments that took money, and for those that did not. */
const STRIPE_PAID = new Set(["paid", "succeeded", "refunded", "partially refunded", "partially_refunded"]);
const STRIPE_NOT_PAID = new Set([
  "failed",
  "uncaptured",
  "canceled",
  "cancelled",
  "pending",
  "blocked",
  "incomplete",
  "expired",
  "requires payment method",
  "requires_payment_method",
  "requires action",
  "requires_action",
]);
/** Metadata keys (the part before " (metadata)", as a header is normalized) that carry the member. */
export const STRIPE_MEMBERSHIP_ID_KEYS = ["membership_id", "membershipid", "certificate_number", "certificate"];
export const STRIPE_PAYMENT_REFERENCE_KEYS = ["payment_reference", "client_reference_id"];

const STRIPE_COLUMNS = {
  id: ["id"],
  created: ["created_date_(utc)", "created_(utc)"],
  amount: ["amount"],
  refunded: ["amount_refunded"],
  currency: ["currency"],
  captured: ["captured"],
  status: ["status"],
  paymentIntent: ["paymentintent_id", "payment_intent_id"],
  invoice: ["invoice_id"],
  refundedOn: ["refunded_date_(utc)"],
} as const;
type StripeColumn = keyof typeof STRIPE_COLUMNS;

/** A payment's, charge's or invoice's id as Stripe writes it: its prefix, then letters and digits. */
const STRIPE_ID = /^(?:pi|ch|in|py)_[A-Za-z0-9]{1,97}$/;
export const isStripeId = (text: string) => STRIPE_ID.test(text);

/** Whether a header row is Stripe's payments export: its id, created time, amount and currency columns. */
export function isStripeExport(header: string[]): boolean {
  const names = header.map(normalizeHeader);
  return (["id", "created", "amount", "currency"] as const).every((c) => STRIPE_COLUMNS[c].some((n) => names.includes(n)));
}

/** One row as the file has it, checked. */
export interface PaymentRow {
  line: number;
  /** Empty when the file does not name it (a Stripe row naming its member by payment reference, or not at all). */
  certificate: string;
  amountCents: number;
  paidOn: string;
  reference: string;
  method: PaymentMethod;
  /** Stripe: the member's payment reference from the metadata. */
  memberReference?: string;
  /** Stripe: the other ids the same payment may be recorded under (the charge, the payment intent, the invoice). */
  otherReferences?: string[];
  /** Stripe: what was paid back of it (Amount Refunded), recorded as a refund against the payment. */
  refundCents?: number;
  /** Stripe: the day of the refund, when the export has it (else the payment's day). */
  refundedOn?: string;
}

/** A row the file holds that is no payment (Stripe: failed, uncaptured...): skipped, with why. */
export interface NotPaidRow {
  line: number;
  reference: string;
  reason: string;
}

export interface RowProblem {
  line: number;
  message: string;
  /** The certificate number of a row that matched no member (or one without a plan). */
  certificate?: string;
  /**
   * Stripe: the row names no member (no payment reference or Membership ID in its metadata), so
   * it is no payment of dues the import could record (another currency, another product): staff
   * may leave it out. With its reference, to list it so.
   */
  notDues?: { reference: string };
}

export type PaymentsCsv =
  | { ok: true; kind: PaymentsFileKind; rows: PaymentRow[]; problems: RowProblem[]; notPaid: NotPaidRow[]; totalRows: number }
  | {
      ok: false;
      error: string;
      /** The header's columns, when staff could map them to the four fields (a file neither the site's nor Stripe's). */
      columns?: string[];
    };

/** How to read a file: the day a payment may carry at the latest, the association's time zone (Stripe writes UTC), a mapping staff chose. */
export interface ReadOptions {
  timeZone?: string;
  mapping?: ColumnMapping | null;
}

/** "03/07/2026" or "2026-03-07" as YYYY-MM-DD, or null. */
export function paymentDay(text: string): string | null {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const day = us ? `${us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}` : text;
  return isIsoDate(day) ? day : null;
}

/** Characters read at once: about 7,000 rows of a portal export, a few milliseconds. */
export const PIECE_CHARS = 256 * 1024;

/**
 * Reads and checks a payments file. Lines are the file's physical lines (the header is line
 * 1); blank lines are skipped; extra columns are ignored; a reference seen earlier in the file
 * makes the later row a problem. `latest` is the last day a payment may carry.
 */
export function parsePaymentsCsv(text: string, latest: string, pieceChars = PIECE_CHARS, options: ReadOptions = {}): PaymentsCsv {
  const reading = readPaymentsCsv(text, latest, pieceChars, options);
  for (;;) {
    const step = reading.next();
    if (step.done) return step.value;
  }
}

/**
 * The same, awaiting `between` after each piece of PIECE_CHARS: a server reading a large file
 * answers other requests meanwhile.
 */
export async function parsePaymentsCsvInTurns(
  text: string,
  latest: string,
  between: () => Promise<void>,
  options: ReadOptions = {},
): Promise<PaymentsCsv> {
  const reading = readPaymentsCsv(text, latest, PIECE_CHARS, options);
  for (;;) {
    const step = reading.next();
    if (step.done) return step.value;
    await between();
  }
}

/** Reads the file a piece at a time, pausing (yield) after each. */
function* readPaymentsCsv(text: string, latest: string, pieceChars = PIECE_CHARS, options: ReadOptions = {}): Generator<void, PaymentsCsv> {
  if (!/\S/.test(text)) return { ok: false, error: PAYMENTS_CSV_MESSAGES.empty };
  const pieces = csvPieces(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, pieceChars);
  let piece = pieces.next();
  if (!piece.done && piece.value.unclosed === 0) return { ok: false, error: unclosedQuoteMessage(1) };
  const head = piece.done ? undefined : piece.value.rows.shift();
  const header = (head ?? []).map(normalizeHeader);
  const col = Object.fromEntries([...PAYMENT_COLUMNS, "method"].map((name) => [name, header.indexOf(name)])) as Record<string, number>;
  const missing = PAYMENT_COLUMNS.filter((name) => col[name] < 0);
  let kind: PaymentsFileKind = "site";
  let stripe: StripeColumns | null = null;
  if (missing.length && isStripeExport(head ?? [])) {
    kind = "stripe";
    stripe = stripeColumns(header);
  } else if (missing.length && options.mapping) {
    kind = "mapped";
    const chosen = Object.values(options.mapping).map(normalizeHeader);
    if (new Set(chosen).size !== chosen.length)
      return { ok: false, error: PAYMENTS_CSV_MESSAGES.mappingRepeated, columns: headerColumns(head) };
    for (const field of PAYMENT_COLUMNS) {
      col[field] = header.indexOf(normalizeHeader(options.mapping[field]));
      if (col[field] < 0)
        return {
          ok: false,
          error: PAYMENTS_CSV_MESSAGES.mappedColumnMissing(MAPPED_FIELD_LABELS[field], options.mapping[field]),
          columns: headerColumns(head),
        };
    }
    col.method = -1;
  } else if (missing.length) {
    const columns = headerColumns(head);
    return { ok: false, error: PAYMENTS_CSV_MESSAGES.missingColumns(missing), ...(columns.length ? { columns } : {}) };
  }

  const rows: PaymentRow[] = [];
  const problems: RowProblem[] = [];
  const notPaid: NotPaidRow[] = [];
  const seen = new Map<string, number>();
  const timeZone = options.timeZone ?? "UTC";
  const [certCol, amountCol, paidCol, refCol, methodCol] = [...PAYMENT_COLUMNS, "method"].map((name) => col[name]);
  let line = 1 + lineBreaksIn(head);
  let totalRows = 0;
  for (let first = true; !piece.done; piece = pieces.next(), first = false) {
    const { rows: cellRows, unclosed } = piece.value;
    // The first piece's header was taken off its rows.
    const unclosedAt = first && unclosed > 0 ? unclosed - 1 : unclosed;
    for (let i = 0; i < cellRows.length; i++) {
      const cells = cellRows[i];
      const rowLine = line + 1;
      // Every later row is in this one's open field: none of them can be read as meant.
      if (i === unclosedAt) return { ok: false, error: unclosedQuoteMessage(rowLine) };
      line = rowLine + lineBreaksIn(cells);
      if (cells.every((c) => c.trim() === "")) continue;
      totalRows++;
      const problem = stripe
        ? checkStripeRow(cells, stripe, latest, timeZone, seen, rowLine)
        : checkRow(cells, certCol, amountCol, paidCol, refCol, methodCol, latest, seen, rowLine);
      if (typeof problem === "string")
        problems.push({ line: rowLine, message: problem, ...(stripe ? notDuesOf(cells, stripe, problem) : {}) });
      else if ("reason" in problem) notPaid.push(problem);
      else rows.push(problem);
    }
    yield;
  }
  if (totalRows === 0) return { ok: false, error: PAYMENTS_CSV_MESSAGES.noRows };
  return { ok: true, kind, rows, problems, notPaid, totalRows };
}

/** The header's column names as written (blank ones left out), for staff to map. */
function headerColumns(head: string[] | undefined): string[] {
  return [...new Set((head ?? []).map((c) => c.trim()).filter(Boolean))];
}

/** The header row's cells, as written (for looking up a saved mapping). */
export function headerOf(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { data } = Papa.parse<string[]>(body, { preview: 1 });
  return (data[0] ?? []).map((c) => c.trim());
}

type StripeColumns = Record<StripeColumn, number> & { membershipId: number; paymentReference: number };

/** Where Stripe's columns are in the header (-1: absent), metadata columns by their key. */
function stripeColumns(header: string[]): StripeColumns {
  const at = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const meta = (keys: string[]) => header.findIndex((h) => h.endsWith("_(metadata)") && keys.includes(h.slice(0, -"_(metadata)".length)));
  const found = Object.fromEntries(Object.entries(STRIPE_COLUMNS).map(([k, names]) => [k, at(names)])) as Record<StripeColumn, number>;
  return { ...found, membershipId: meta(STRIPE_MEMBERSHIP_ID_KEYS), paymentReference: meta(STRIPE_PAYMENT_REFERENCE_KEYS) };
}

/**
 * Stripe writes times in UTC ("2026-03-07 14:05:33"; some exports leave out the seconds, or
 * write a T): the association's day of that moment, as the webhook dates a payment. Null when
 * it is no such time.
 */
export function stripeDay(text: string, timeZone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?(?:Z| ?UTC| ?\+00:?00)?$/i.exec(text);
  if (!m || !isIsoDate(m[1])) return null;
  if (m[2] === undefined) return m[1];
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return null;
  return todayIn(timeZone, new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}Z`));
}

/**
 * A Stripe row's problem that staff may leave the row out for: the row names no member, and the
 * problem is not its ids (those are refused whatever the row is: nothing but Stripe's ids is read).
 */
function notDuesOf(cells: string[], c: StripeColumns, problem: string): Pick<RowProblem, "notDues"> {
  if (cellAt(cells, c.membershipId) || cellAt(cells, c.paymentReference)) return {};
  const reference = cellAt(cells, c.paymentIntent) || cellAt(cells, c.id);
  if (!isStripeId(reference) || problem.includes(STRIPE_ID_PROBLEM)) return {};
  return { notDues: { reference } };
}

/** One row of Stripe's export checked: the payment, a row that took no money (skipped), or what is wrong with it. */
function checkStripeRow(
  cells: string[],
  c: StripeColumns,
  latest: string,
  timeZone: string,
  seen: Map<string, number>,
  line: number,
): PaymentRow | NotPaidRow | string {
  const S = STRIPE_EXPORT_MESSAGES;
  // Only ids as the provider writes them become references (a formula such as =cmd|... never does).
  const id = cellAt(cells, c.id);
  if (!isStripeId(id)) return S.providerId("id");
  const paymentIntent = cellAt(cells, c.paymentIntent);
  if (paymentIntent && !isStripeId(paymentIntent)) return S.providerId("PaymentIntent ID");
  const invoice = cellAt(cells, c.invoice);
  if (invoice && !isStripeId(invoice)) return S.providerId("Invoice ID");
  const reference = paymentIntent || id;
  const status = cellAt(cells, c.status);
  const statusWord = status.toLowerCase();
  if (cellAt(cells, c.captured).toLowerCase() === "false") return { line, reference, reason: S.notCaptured };
  if (STRIPE_NOT_PAID.has(statusWord)) return { line, reference, reason: S.notPaid(status) };
  if (status && !STRIPE_PAID.has(statusWord)) return S.status(status);
  const currency = cellAt(cells, c.currency);
  if (currency.toLowerCase() !== "usd") return S.currency(currency);
  const amountCents = parseCents(cellAt(cells, c.amount));
  if (amountCents === null || amountCents < 1 || amountCents > MAX_PAYMENT_CENTS) return S.amount;
  const refundedText = cellAt(cells, c.refunded);
  const refundCents = refundedText ? parseCents(refundedText) : 0;
  if (refundCents === null || refundCents > amountCents) return S.refunded;
  const paidOn = stripeDay(cellAt(cells, c.created), timeZone);
  if (!paidOn) return S.created;
  if (paidOn > latest || paidOn < EARLIEST_MEMBERSHIP_DAY) return S.createdRange(latest);
  const refundedDay = refundCents > 0 ? stripeDay(cellAt(cells, c.refundedOn), timeZone) : null;
  const refundedOn = refundedDay && refundedDay >= paidOn && refundedDay <= latest ? refundedDay : paidOn;
  const earlier = seen.get(reference);
  if (earlier !== undefined) return PAYMENTS_CSV_MESSAGES.repeated(earlier);
  seen.set(reference, line);
  const memberReference = cellAt(cells, c.paymentReference);
  return {
    line,
    certificate: normalizeCertificate(cellAt(cells, c.membershipId)),
    amountCents,
    paidOn,
    reference,
    method: "card",
    ...(memberReference ? { memberReference } : {}),
    otherReferences: [...new Set([id, paymentIntent, invoice].filter((r) => r && r !== reference))],
    refundCents,
    ...(refundCents > 0 ? { refundedOn } : {}),
  };
}

/** One piece's rows, and the index among them of the row whose quoted field is not closed (-1: none). */
export interface CsvPiece {
  rows: string[][];
  unclosed: number;
}

const piece = (parsed: Papa.ParseResult<string[]>): CsvPiece => ({ rows: parsed.data, unclosed: firstUnclosedRow(parsed.errors) });

/**
 * The rows Papa.parse reads from the whole text, read a piece of about `pieceChars` at a time
 * (each piece's rows in turn), so a large file is not one long task. A piece ends before a
 * line break with an even number of quote characters before it: outside any quoted field in
 * a well-formed file. Where stray quotes fool that count, the piece ends inside a quoted
 * field and Papa reports a quotes error; then that piece is read again with the rest of the
 * file, as one. The delimiter and line break are Papa's guesses from the whole text.
 */
export function* csvPieces(text: string, pieceChars = PIECE_CHARS): Generator<CsvPiece> {
  const { meta } = Papa.parse<string[]>(text, { preview: 1 });
  const config: Papa.ParseConfig<string[]> = {
    delimiter: meta.delimiter,
    newline: meta.linebreak as Papa.ParseConfig["newline"],
    skipEmptyLines: false,
  };
  const lineBreak = meta.linebreak;
  let start = 0;
  // The quote characters before the line break looked at, and the first one after it.
  let quotes = 0;
  let nextQuote = text.indexOf('"');
  for (;;) {
    let end = -1;
    for (let at = text.indexOf(lineBreak, start + pieceChars); at >= 0; at = text.indexOf(lineBreak, at + lineBreak.length)) {
      for (; nextQuote >= 0 && nextQuote < at; nextQuote = text.indexOf('"', nextQuote + 1)) quotes++;
      if (quotes % 2 === 0) {
        end = at;
        break;
      }
    }
    if (end < 0) {
      // The rest of the file: a text ending in a line break ends with an empty row, as Papa reads it.
      const rest = text.slice(start);
      yield rest === "" ? { rows: [[""]], unclosed: -1 } : piece(Papa.parse<string[]>(rest, config));
      return;
    }
    const parsed = Papa.parse<string[]>(text.slice(start, end), config);
    if (parsed.errors.some((e) => e.type === "Quotes")) {
      yield piece(Papa.parse<string[]>(text.slice(start), config));
      return;
    }
    yield { rows: parsed.data, unclosed: -1 };
    start = end + lineBreak.length;
  }
}

const cellAt = (cells: string[], index: number) => (index >= 0 ? (cells[index] ?? "").trim() : "");

/** One row checked: the payment, or what is wrong with it. (A function of its own: the loop above makes no closures per row.) */
function checkRow(
  cells: string[],
  certCol: number,
  amountCol: number,
  paidCol: number,
  refCol: number,
  methodCol: number,
  latest: string,
  seen: Map<string, number>,
  line: number,
): PaymentRow | string {
  const certificate = normalizeCertificate(cellAt(cells, certCol));
  if (!certificate) return PAYMENTS_CSV_MESSAGES.certificate;
  const amountCents = parseCents(cellAt(cells, amountCol));
  if (amountCents === null || amountCents < 1 || amountCents > MAX_PAYMENT_CENTS) return PAYMENTS_CSV_MESSAGES.amount;
  const paidOn = paymentDay(cellAt(cells, paidCol));
  if (!paidOn) return PAYMENTS_CSV_MESSAGES.paidOn;
  if (paidOn > latest || paidOn < EARLIEST_MEMBERSHIP_DAY) return PAYMENTS_CSV_MESSAGES.paidOnRange(latest);
  const reference = cellAt(cells, refCol);
  if (!reference || reference.length > 100 || !isOneLine(reference)) return PAYMENTS_CSV_MESSAGES.reference;
  const methodText = cellAt(cells, methodCol).toLowerCase();
  if (methodText && !(PAYMENT_METHODS as readonly string[]).includes(methodText)) return PAYMENTS_CSV_MESSAGES.method;
  const earlier = seen.get(reference);
  if (earlier !== undefined) return PAYMENTS_CSV_MESSAGES.repeated(earlier);
  seen.set(reference, line);
  // The portal takes cards unless the file says otherwise.
  return { line, certificate, amountCents, paidOn, reference, method: (methodText || "card") as PaymentMethod };
}

/** The line breaks inside a row's quoted fields (most rows have none: only those are scanned). */
function lineBreaksIn(cells: string[] | undefined): number {
  let n = 0;
  for (const cell of cells ?? []) if (cell.includes("\n") || cell.includes("\r")) n += lineBreaks(cell);
  return n;
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}
