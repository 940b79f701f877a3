import { useRef, useState, type ReactNode } from "react";
import { CalendarDays, ChevronRight, PlayCircle, type LucideIcon } from "lucide-react";
import { Modal } from "~/components/Modal";
import { MaintenanceCalendar } from "~/features/calendar/MaintenanceCalendar";
import { VideoTutorials } from "~/features/videos/VideoTutorials";

type Tool = "calendar" | "videos";

const TOOLS: Record<
  Tool,
  { title: string; dialogTitle: string; tagline: string; icon: LucideIcon; size: "xl" | "full"; body: () => ReactNode }
> = {
  calendar: {
    title: "Maintenance Calendar",
    dialogTitle: "Home Maintenance Calendar",
    tagline: "A month-by-month plan of seasonal home care tasks.",
    icon: CalendarDays,
    size: "full",
    body: () => <MaintenanceCalendar />,
  },
  videos: {
    title: "Video Tutorials",
    dialogTitle: "Video Tutorials",
    tagline: "Short how-to videos for homeowners, by topic.",
    icon: PlayCircle,
    size: "xl",
    body: () => <VideoTutorials />,
  },
};

/** The two tool tiles of the knowledge center and their dialogs. */
export function KnowledgeTools() {
  const [open, setOpen] = useState<Tool | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const current = open ? TOOLS[open] : null;
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2" aria-label="Member tools">
        {(Object.keys(TOOLS) as Tool[]).map((key) => {
          const tool = TOOLS[key];
          const Icon = tool.icon;
          return (
            <li key={key}>
              <button
                type="button"
                onClick={() => setOpen(key)}
                aria-haspopup="dialog"
                className="group flex w-full items-center gap-4 rounded-xl border border-slate-200 bg-white p-5 text-left shadow-sm transition hover:border-brand-500 hover:shadow-md"
              >
                <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 group-hover:bg-brand-700 group-hover:text-white">
                  <Icon className="h-6 w-6" aria-hidden />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-lg font-semibold text-brand-900">{tool.title}</span>
                  <span className="mt-0.5 block text-sm text-slate-600">{tool.tagline}</span>
                </span>
                <ChevronRight className="h-5 w-5 shrink-0 text-slate-400 group-hover:text-brand-700" aria-hidden />
              </button>
            </li>
          );
        })}
      </ul>
      <Modal
        open={current !== null}
        onOpenChange={(o) => !o && setOpen(null)}
        title={current?.dialogTitle ?? ""}
        description={current?.tagline}
        size={current?.size ?? "lg"}
        initialFocus={closeRef}
        footer={
          <button ref={closeRef} type="button" className="btn-primary" onClick={() => setOpen(null)}>
            Close
          </button>
        }
      >
        {current?.body()}
      </Modal>
    </>
  );
}
