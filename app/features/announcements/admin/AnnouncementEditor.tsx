import { ArrowLeft, CalendarClock, Eye, LoaderCircle, Save, Send, SendHorizontal, Trash2, XCircle } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { ConfirmDialog, FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { FormFailure } from "~/components/forms/FormParts";
import { Modal } from "~/components/Modal";
import { useDebouncedCallback } from "~/components/useDebouncedCallback";
import { formatZonedDateTime } from "~/platform/dates";
import { COVERAGE_KINDS, COVERAGE_KIND_NAMES } from "~/features/membership/statuses";
import {
  ANNOUNCEMENT_MESSAGES,
  BODY_MAX,
  MERGE_FIELDS,
  PLAN_CHOICES,
  PLAN_CHOICE_LABELS,
  PREVIEW_MISSING_TEXT,
  SUBJECT_MAX,
  audienceSchema,
  draftSchema,
  scheduleSchema,
  type AnnouncementDetail,
  type Audience,
  type AudienceCount,
  type AudienceOptions,
  type DraftInput,
  type PreviewAnswer,
} from "../contract";
import { announcementsApi, errorText } from "./api-client";
import { formatCount, members } from "./display";
import { StatusLabel } from "./parts";

/** The audience as the form holds it: blank dates are "". */
interface AudienceForm {
  statuses: Audience["statuses"];
  plans: Audience["plans"];
  states: string[];
  joinedAfter: string;
  joinedBefore: string;
}
const NO_AUDIENCE: AudienceForm = { statuses: [], plans: [], states: [], joinedAfter: "", joinedBefore: "" };
const toAudience = (a: AudienceForm) => ({ ...a, joinedAfter: a.joinedAfter || null, joinedBefore: a.joinedBefore || null });
const fromAudience = (a: Audience): AudienceForm => ({ ...a, joinedAfter: a.joinedAfter ?? "", joinedBefore: a.joinedBefore ?? "" });

/** How long the audience stays still before it is counted again. */
const COUNT_DELAY_MS = 400;

type Confirm = "send" | "cancel" | "delete" | null;

function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

/** The first message of each field the schema refuses ("subject", "body", "audience.joinedBefore"...). */
function errorsOf(input: DraftInput): Record<string, string> {
  const checked = draftSchema.safeParse(input);
  const out: Record<string, string> = {};
  if (checked.success) return out;
  for (const issue of checked.error.issues) {
    const key = issue.path.join(".");
    out[key] ??= issue.message;
  }
  return out;
}

function FieldMessage({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p id={id} className="field-error">
      {text}
    </p>
  );
}

function Label({ htmlFor, children, required }: { htmlFor: string; children: ReactNode; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="field-label">
      {children}
      {required ? (
        <span className="text-red-700" aria-hidden>
          {" "}
          *
        </span>
      ) : null}
    </label>
  );
}

/**
 * The editor of a new, draft or scheduled announcement: subject, message, audience with its
 * live count, and Save draft, Preview, Send test, Schedule, Send now, Cancel, Delete. The
 * contract's schema checks what is typed here as the server does.
 */
export function AnnouncementEditor({
  id: initialId,
  onBack,
  onStarted,
  onCreated,
}: {
  id: number | null;
  onBack: (message?: string) => void;
  onStarted: (id: number, message: string) => void;
  /** A new announcement was saved as a draft: the page's address names it from then on. */
  onCreated?: (id: number) => void;
}) {
  const uid = useId().replace(/[^a-zA-Z0-9]/g, "");
  const ids = {
    subject: `${uid}-subject`,
    body: `${uid}-body`,
    bodyHint: `${uid}-body-hint`,
    joinedAfter: `${uid}-after`,
    joinedBefore: `${uid}-before`,
    states: `${uid}-states`,
    failure: `${uid}-failure`,
    previewFor: `${uid}-preview-for`,
    date: `${uid}-date`,
    time: `${uid}-time`,
  };
  const [id, setId] = useState<number | null>(initialId);
  const [record, setRecord] = useState<AnnouncementDetail | null>(null);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const [options, setOptions] = useState<AudienceOptions | null>(null);
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [audience, setAudience] = useState<AudienceForm>(NO_AUDIENCE);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [count, setCount] = useState<AudienceCount | null>(null);
  const [countError, setCountError] = useState<string | null>(null);
  const [counting, setCounting] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [previewFor, setPreviewFor] = useState("");
  const [preview, setPreview] = useState<PreviewAnswer | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const { flash, show, clear } = useFlashMessage();
  const failureRef = useRef<HTMLDivElement>(null);

  // The announcement being edited and the audience's choices.
  useEffect(() => {
    let live = true;
    announcementsApi.options().then(
      (o) => live && setOptions(o),
      (err: unknown) => live && setLoadFailed(`The audience's choices could not be loaded: ${errorText(err)}`),
    );
    if (initialId !== null)
      announcementsApi.get(initialId).then(
        (a) => {
          if (!live) return;
          setRecord(a);
          setSubject(a.subject);
          setBody(a.body);
          setAudience(fromAudience(a.audience));
        },
        (err: unknown) => live && setLoadFailed(`The announcement could not be loaded: ${errorText(err)}`),
      );
    return () => {
      live = false;
    };
  }, [initialId]);

  const input: DraftInput = useMemo(() => ({ subject, body, audience: toAudience(audience) }), [subject, body, audience]);
  const errors = useMemo(() => errorsOf(input), [input]);
  const shown = (field: string) => (submitted || touched.has(field) ? errors[field] : undefined);
  const leave = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));

  // The live count: the audience counted once it stays still; an answer to an older audience is dropped.
  const asked = useRef<AbortController | null>(null);
  const { schedule: countLater } = useDebouncedCallback((form: AudienceForm) => {
    asked.current?.abort();
    const checked = audienceSchema.safeParse(toAudience(form));
    if (!checked.success) {
      setCounting(false);
      setCountError(checked.error.issues[0]?.message ?? ANNOUNCEMENT_MESSAGES.day);
      return;
    }
    const ask = new AbortController();
    asked.current = ask;
    announcementsApi.count(checked.data, ask.signal).then(
      (c) => {
        if (ask.signal.aborted) return;
        setCount(c);
        setCountError(null);
        setCounting(false);
      },
      (err: unknown) => {
        if (ask.signal.aborted) return;
        setCountError(`The audience could not be counted: ${errorText(err)}`);
        setCounting(false);
      },
    );
  }, COUNT_DELAY_MS);
  const audienceKey = JSON.stringify(audience);
  useEffect(() => {
    if (initialId !== null && !record) return;
    setCounting(true);
    countLater(audience);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- counted again when the audience's value changes
  }, [audienceKey, record]);
  useEffect(() => () => asked.current?.abort(), []);

  const readOnly = record !== null && record.status !== "draft" && record.status !== "scheduled";
  const mailOff = options !== null && !options.mailEnabled;

  function fail(text: string) {
    setFailure(text);
    requestAnimationFrame(() => failureRef.current?.querySelector<HTMLElement>("[role=alert]")?.focus());
  }

  /** Checks the form; false (and every message shown) when it is refused. */
  function valid(): boolean {
    setSubmitted(true);
    const first = Object.values(errors)[0];
    if (first) {
      fail(`Check the form: ${first}`);
      return false;
    }
    setFailure(null);
    return true;
  }

  /** Saves what is typed (a new draft, or the draft or scheduled one); the saved record. */
  async function save(): Promise<AnnouncementDetail> {
    const saved = id === null ? await announcementsApi.create(input) : await announcementsApi.update(id, input);
    if (id === null) onCreated?.(saved.id);
    setId(saved.id);
    setRecord(saved);
    return saved;
  }

  async function run(action: string, work: () => Promise<void>) {
    if (busy) return;
    setBusy(action);
    setFailure(null);
    try {
      await work();
    } catch (err) {
      fail(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  const saveDraft = () => valid() && void run("save", async () => void (await save(), show("success", "Draft saved.")));
  const showPreview = () =>
    valid() &&
    void run("preview", async () => setPreview(await announcementsApi.preview({ ...input, certificateNumber: previewFor.trim() || null })));
  const sendTest = () => {
    if (!valid()) return;
    if (options && !options.testAddress) return fail(ANNOUNCEMENT_MESSAGES.noTestAddress);
    void run("test", async () => {
      const { sentTo } = await announcementsApi.test({ ...input, certificateNumber: previewFor.trim() || null });
      show("success", `A test was sent to ${sentTo}.`);
    });
  };
  const scheduleIt = () => {
    if (!valid()) return;
    const at = scheduleSchema.safeParse({ at: `${date}T${time}` });
    if (!at.success) {
      setScheduleError(at.error.issues[0]?.message ?? ANNOUNCEMENT_MESSAGES.scheduleAt);
      return;
    }
    setScheduleError(null);
    void run("schedule", async () => {
      const saved = await save();
      const scheduled = await announcementsApi.schedule(saved.id, at.data.at);
      onBack(
        `“${scheduled.subject}” is scheduled for ${(options && formatZonedDateTime(scheduled.scheduledAt, options.timeZone)) ?? at.data.at}.`,
      );
    });
  };
  const askSend = () => valid() && setConfirm("send");
  const sendNow = () =>
    void run("send", async () => {
      const saved = await save();
      const started = await announcementsApi.send(saved.id);
      setConfirm(null);
      onStarted(started.id, `Sending “${started.subject}” started.`);
    }).finally(() => setConfirm((c) => (c === "send" ? null : c)));
  const cancelIt = () =>
    id !== null &&
    void run("cancel", async () => {
      const cancelled = await announcementsApi.cancel(id);
      onBack(`“${cancelled.subject}” was cancelled.`);
    }).finally(() => setConfirm(null));
  const deleteIt = () =>
    id !== null &&
    void run("delete", async () => {
      await announcementsApi.remove(id);
      onBack("The draft was deleted.");
    }).finally(() => setConfirm(null));

  if (loadFailed)
    return (
      <AdminPanel title="Announcement" description="">
        <FormFailure id={ids.failure}>{loadFailed}</FormFailure>
        <button type="button" className="btn-outline mt-4" onClick={() => onBack()}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to announcements
        </button>
      </AdminPanel>
    );
  if (!options || (initialId !== null && !record))
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
        Loading the announcement...
      </p>
    );

  const recipients = count?.recipients ?? 0;
  const working = busy !== null;
  return (
    <AdminPanel
      title={id === null ? "New announcement" : "Edit announcement"}
      description={
        record?.status === "scheduled"
          ? "Scheduled: change it, schedule it again, send it now or cancel it."
          : "Write it, choose who receives it, preview and test it, then send or schedule it."
      }
      actions={
        <button type="button" className="btn-outline" onClick={() => onBack()}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to announcements
        </button>
      }
    >
      <div className="space-y-6">
        <FlashBanner flash={flash} onDismiss={clear} testId="announcement-message" />
        {record ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <StatusLabel status={record.status} />
            {record.status === "scheduled" && record.scheduledAt ? (
              <span>
                Goes out {formatZonedDateTime(record.scheduledAt, options.timeZone)} ({options.timeZone})
              </span>
            ) : null}
          </p>
        ) : null}
        {mailOff ? (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {ANNOUNCEMENT_MESSAGES.mailOff}
          </p>
        ) : null}
        <div ref={failureRef}>{failure ? <FormFailure id={ids.failure}>{failure}</FormFailure> : null}</div>

        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="space-y-4">
            <div>
              <Label htmlFor={ids.subject} required>
                Subject
              </Label>
              <input
                id={ids.subject}
                className="field-input"
                value={subject}
                maxLength={SUBJECT_MAX + 10}
                disabled={readOnly}
                aria-invalid={shown("subject") ? true : undefined}
                aria-describedby={shown("subject") ? `${ids.subject}-error` : undefined}
                onChange={(e) => setSubject(e.target.value)}
                onBlur={() => leave("subject")}
              />
              <FieldMessage id={`${ids.subject}-error`} text={shown("subject")} />
            </div>
            <div>
              <Label htmlFor={ids.body} required>
                Message
              </Label>
              <p id={ids.bodyHint} className="mb-1.5 text-sm text-slate-600">
                Plain text. These fields are filled in for each member: {MERGE_FIELDS.map((f) => `{${f}}`).join(", ")}.
              </p>
              <textarea
                id={ids.body}
                className="field-input min-h-64 font-mono text-sm"
                value={body}
                maxLength={BODY_MAX + 100}
                disabled={readOnly}
                aria-invalid={shown("body") ? true : undefined}
                aria-describedby={`${ids.bodyHint}${shown("body") ? ` ${ids.body}-error` : ""}`}
                onChange={(e) => setBody(e.target.value)}
                onBlur={() => leave("body")}
              />
              <FieldMessage id={`${ids.body}-error`} text={shown("body")} />
            </div>
          </div>

          <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4" disabled={readOnly}>
            <legend className="px-1 font-semibold text-brand-900">Audience</legend>
            <p className="text-sm text-slate-600">Active members only. Leave a group blank to include all of it.</p>
            <fieldset>
              <legend className="field-label">Coverage status</legend>
              <div className="grid gap-1.5 sm:grid-cols-2">
                {COVERAGE_KINDS.map((kind) => (
                  <label key={kind} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-4 w-4 rounded border-slate-400"
                      checked={audience.statuses.includes(kind)}
                      onChange={(e) => setAudience((a) => ({ ...a, statuses: toggle(a.statuses, kind, e.target.checked) }))}
                    />
                    {COVERAGE_KIND_NAMES[kind]}
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend className="field-label">Plan</legend>
              <div className="flex flex-wrap gap-4">
                {PLAN_CHOICES.map((plan) => (
                  <label key={plan} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-4 w-4 rounded border-slate-400"
                      checked={audience.plans.includes(plan)}
                      onChange={(e) => setAudience((a) => ({ ...a, plans: toggle(a.plans, plan, e.target.checked) }))}
                    />
                    {PLAN_CHOICE_LABELS[plan]}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <Label htmlFor={ids.states}>States</Label>
              <p id={`${ids.states}-hint`} className="mb-1.5 text-sm text-slate-600">
                {options.states.length ? "Hold Ctrl (or ⌘) to choose several." : "No member has a state on file."}
              </p>
              <select
                id={ids.states}
                multiple
                size={Math.min(6, Math.max(2, options.states.length))}
                className="field-input"
                aria-describedby={`${ids.states}-hint`}
                value={audience.states}
                onChange={(e) => setAudience((a) => ({ ...a, states: Array.from(e.target.selectedOptions, (o) => o.value) }))}
              >
                {options.states.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <Label htmlFor={ids.joinedAfter}>Joined after</Label>
                <input
                  id={ids.joinedAfter}
                  type="date"
                  className="field-input"
                  value={audience.joinedAfter}
                  onChange={(e) => setAudience((a) => ({ ...a, joinedAfter: e.target.value }))}
                />
                <FieldMessage id={`${ids.joinedAfter}-error`} text={errors["audience.joinedAfter"]} />
              </div>
              <div>
                <Label htmlFor={ids.joinedBefore}>Joined before</Label>
                <input
                  id={ids.joinedBefore}
                  type="date"
                  className="field-input"
                  value={audience.joinedBefore}
                  onChange={(e) => setAudience((a) => ({ ...a, joinedBefore: e.target.value }))}
                />
                <FieldMessage id={`${ids.joinedBefore}-error`} text={errors["audience.joinedBefore"]} />
              </div>
            </div>
            <div
              role="status"
              aria-live="polite"
              data-testid="audience-count"
              className="rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-900"
            >
              {countError ? (
                <span className="text-red-800">{countError}</span>
              ) : count ? (
                <span className={counting ? "opacity-60" : undefined}>
                  Reaches {members(count.matching)} · {formatCount(count.withoutEmail)} without an e-mail address ·{" "}
                  {formatCount(count.optedOut)} opted out · {formatCount(count.recipients)} will receive it
                </span>
              ) : (
                <span className="inline-flex items-center gap-2">
                  <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                  Counting the audience...
                </span>
              )}
            </div>
          </fieldset>
        </div>

        {readOnly ? null : (
          <>
            <div className="grid gap-4 rounded-lg border border-slate-200 p-4 md:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor={ids.previewFor}>Preview and test as (Membership ID)</Label>
                <p id={`${ids.previewFor}-hint`} className="text-sm text-slate-600">
                  Blank: the first member of the audience. The test goes to {options.testAddress ?? "your own address (none on file)"}.
                </p>
                <input
                  id={ids.previewFor}
                  className="field-input"
                  value={previewFor}
                  autoComplete="off"
                  aria-describedby={`${ids.previewFor}-hint`}
                  onChange={(e) => setPreviewFor(e.target.value)}
                />
                <div className="flex flex-wrap gap-2">
                  <button type="button" className="btn-outline" onClick={showPreview} disabled={working}>
                    {busy === "preview" ? (
                      <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                    ) : (
                      <Eye className="h-4 w-4" aria-hidden />
                    )}
                    Preview
                  </button>
                  <button type="button" className="btn-outline" onClick={sendTest} disabled={working || mailOff}>
                    {busy === "test" ? (
                      <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                    ) : (
                      <SendHorizontal className="h-4 w-4" aria-hidden />
                    )}
                    Send test
                  </button>
                </div>
              </div>
              <fieldset className="space-y-2">
                <legend className="field-label">Schedule</legend>
                <p id={`${ids.date}-hint`} className="text-sm text-slate-600">
                  Date and time in the association&apos;s time zone: {options.timeZone}.
                </p>
                <div className="flex flex-wrap gap-2">
                  <label htmlFor={ids.date} className="sr-only">
                    Date
                  </label>
                  <input
                    id={ids.date}
                    type="date"
                    className="field-input w-auto"
                    value={date}
                    aria-describedby={`${ids.date}-hint`}
                    onChange={(e) => setDate(e.target.value)}
                  />
                  <label htmlFor={ids.time} className="sr-only">
                    Time
                  </label>
                  <input
                    id={ids.time}
                    type="time"
                    className="field-input w-auto"
                    value={time}
                    aria-describedby={`${ids.date}-hint`}
                    onChange={(e) => setTime(e.target.value)}
                  />
                  <button type="button" className="btn-outline" onClick={scheduleIt} disabled={working || mailOff}>
                    {busy === "schedule" ? (
                      <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                    ) : (
                      <CalendarClock className="h-4 w-4" aria-hidden />
                    )}
                    Schedule
                  </button>
                </div>
                {scheduleError ? <p className="field-error">{scheduleError}</p> : null}
              </fieldset>
            </div>

            <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:flex-wrap sm:justify-between">
              <div className="flex flex-col gap-2 sm:flex-row">
                {record?.status === "draft" ? (
                  <button
                    type="button"
                    className="btn-ghost text-red-700 hover:bg-red-50"
                    onClick={() => setConfirm("delete")}
                    disabled={working}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden />
                    Delete
                  </button>
                ) : null}
                {record?.status === "scheduled" ? (
                  <button
                    type="button"
                    className="btn-ghost text-red-700 hover:bg-red-50"
                    onClick={() => setConfirm("cancel")}
                    disabled={working}
                  >
                    <XCircle className="h-4 w-4" aria-hidden />
                    Cancel announcement
                  </button>
                ) : null}
              </div>
              <div className="flex flex-col gap-2 sm:flex-row">
                <button type="button" className="btn-outline" onClick={saveDraft} disabled={working}>
                  {busy === "save" ? (
                    <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                  ) : (
                    <Save className="h-4 w-4" aria-hidden />
                  )}
                  {record?.status === "scheduled" ? "Save" : "Save draft"}
                </button>
                <button type="button" className="btn-primary" onClick={askSend} disabled={working || mailOff || !count}>
                  <Send className="h-4 w-4" aria-hidden />
                  Send now
                </button>
              </div>
            </div>
          </>
        )}
      </div>

      <Modal
        open={preview !== null}
        onOpenChange={(o) => !o && setPreview(null)}
        title="Preview"
        size="lg"
        description={
          preview
            ? `As ${preview.member.name}${preview.member.certificateNumber ? ` (${preview.member.certificateNumber})` : ""} would read it.${
                preview.member.missing ? ` ${PREVIEW_MISSING_TEXT[preview.member.missing]}` : ""
              }`
            : undefined
        }
      >
        {preview ? (
          <div className="space-y-3" data-testid="announcement-preview">
            <p className="text-sm">
              <span className="font-semibold text-slate-700">Subject: </span>
              <span data-testid="preview-subject">{preview.subject}</span>
            </p>
            <pre
              data-testid="preview-text"
              className="max-h-[60vh] overflow-auto whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-3 font-sans text-sm text-slate-900"
            >
              {preview.text}
            </pre>
          </div>
        ) : null}
      </Modal>
      <ConfirmDialog
        open={confirm === "send"}
        title="Send now"
        confirmLabel="Send now"
        confirmIcon={<Send className="h-4 w-4" aria-hidden />}
        busyLabel="Starting..."
        busy={busy === "send"}
        onCancel={() => setConfirm(null)}
        onConfirm={sendNow}
      >
        <p>
          Send “{subject.trim()}” to {members(recipients)} now?
        </p>
        <p className="mt-2 text-sm text-slate-600">
          It cannot be edited once sending starts; it can be cancelled (what was sent stays sent).
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "cancel"}
        title="Cancel announcement"
        confirmLabel="Cancel announcement"
        cancelLabel="Keep it"
        busyLabel="Cancelling..."
        busy={busy === "cancel"}
        onCancel={() => setConfirm(null)}
        onConfirm={cancelIt}
      >
        <p>Cancel “{record?.subject}”? It will not be sent.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "delete"}
        title="Delete draft"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={busy === "delete"}
        onCancel={() => setConfirm(null)}
        onConfirm={deleteIt}
      >
        <p>Delete the draft “{record?.subject}”?</p>
      </ConfirmDialog>
    </AdminPanel>
  );
}
