import { STATUS_LABELS, SUBMISSION_STATUSES, type SubmissionStatus } from "../contract";
import { STATUS_COLORS } from "../display";

/** A status in its color: pending yellow, in-review blue, approved green, rejected red, completed purple. */
export function StatusBadge({ status }: { status: SubmissionStatus }) {
  return (
    <span
      data-status-color={STATUS_COLORS[status].name}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_COLORS[status].className}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * The per-row status dropdown, colored like the badge; disabled while an update is in flight,
 * as aria-disabled: a `disabled` control drops the keyboard focus to the page.
 */
export function StatusSelect({
  value,
  label,
  busy,
  onChange,
}: {
  value: SubmissionStatus;
  label: string;
  busy: boolean;
  onChange: (status: SubmissionStatus) => void;
}) {
  return (
    <select
      aria-label={label}
      data-status-color={STATUS_COLORS[value].name}
      className={`rounded-full border-0 py-1 pl-3 pr-8 text-xs font-semibold ring-1 ring-inset focus:outline-none focus:ring-2 focus:ring-brand-600 aria-disabled:cursor-wait ${STATUS_COLORS[value].className}`}
      value={value}
      aria-disabled={busy || undefined}
      onChange={(e) => {
        if (!busy) onChange(e.target.value as SubmissionStatus);
      }}
    >
      {SUBMISSION_STATUSES.map((s) => (
        <option key={s} value={s}>
          {STATUS_LABELS[s]}
        </option>
      ))}
    </select>
  );
}
