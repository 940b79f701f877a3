import { ANNOUNCEMENT_STATUS_LABELS, type AnnouncementStatus } from "../contract";

const STATUS_STYLES: Record<AnnouncementStatus, string> = {
  draft: "bg-slate-100 text-slate-800",
  scheduled: "bg-sky-100 text-sky-900",
  sending: "bg-amber-100 text-amber-900",
  sent: "bg-green-100 text-green-900",
  cancelled: "bg-red-50 text-red-800",
};

export function StatusLabel({ status, testId }: { status: AnnouncementStatus; testId?: string }) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}
    >
      {ANNOUNCEMENT_STATUS_LABELS[status]}
    </span>
  );
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 w-full min-w-24 overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
