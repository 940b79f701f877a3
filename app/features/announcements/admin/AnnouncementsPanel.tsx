import { getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { Megaphone, Plus } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { DataTable, TableState, type AdminColumn } from "~/components/admin/DataTable";
import { EmptyList, FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { useAssociationTime } from "~/components/usePublicConfig";
import type { AnnouncementSummary } from "../contract";
import { announcementsApi, errorText } from "./api-client";
import { audienceSummary, donePercent, formatCount, sentOf, skippedTotal } from "./display";
import { AnnouncementEditor } from "./AnnouncementEditor";
import { AnnouncementProgressView } from "./AnnouncementProgress";
import { ProgressBar, StatusLabel } from "./parts";

/** How often a list or page with a send under way asks again. */
export const POLL_MS = 3000;

type Screen = { kind: "list" } | { kind: "edit"; id: number | null } | { kind: "view"; id: number };

/** The list's progress cell: "sent N of M" (a bar while sending), failed and skipped counts. */
function ProgressCell({ a }: { a: AnnouncementSummary }) {
  const p = a.progress;
  if (!p) return <span className="text-slate-500">Not started</span>;
  const skipped = skippedTotal(p);
  return (
    <div className="space-y-1">
      <p>{sentOf(p)}</p>
      {a.status === "sending" ? <ProgressBar percent={donePercent(p)} label={`Progress of ${a.subject}`} /> : null}
      {p.failed || skipped ? (
        <p className="text-xs text-slate-600">
          {p.failed ? <span className="text-red-700">{formatCount(p.failed)} failed</span> : null}
          {p.failed && skipped ? " · " : null}
          {skipped ? `${formatCount(skipped)} skipped` : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The Announcements tab (issue 41): the list, the editor of a draft or scheduled one, and the
 * page of one being sent or sent. Fetched when the tab is first opened (AdminDashboard).
 */
export default function AnnouncementsPanel() {
  const [screen, setScreen] = useState<Screen>({ kind: "list" });
  const [list, setList] = useState<AnnouncementSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const { flash, show, clear } = useFlashMessage();
  const when = useAssociationTime();

  const load = useCallback(async () => {
    try {
      setList(await announcementsApi.list());
      setFailed(false);
    } catch (err) {
      setFailed(true);
      show("error", `Failed to load announcements: ${errorText(err)}`);
    }
  }, [show]);
  useEffect(() => {
    if (screen.kind === "list") void load();
  }, [load, screen.kind]);
  // While one is sending, the list's progress follows it.
  const sending = screen.kind === "list" && !!list?.some((a) => a.status === "sending");
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [sending, load]);

  const open = useCallback(
    (a: AnnouncementSummary) =>
      setScreen(a.status === "draft" || a.status === "scheduled" ? { kind: "edit", id: a.id } : { kind: "view", id: a.id }),
    [],
  );
  const columns = useMemo<AdminColumn<AnnouncementSummary>[]>(
    () => [
      {
        id: "subject",
        accessorKey: "subject",
        meta: { label: "Subject", primary: true },
        cell: ({ row: { original: a } }) => (
          <button
            type="button"
            className="text-left font-semibold text-brand-800 underline-offset-2 hover:underline"
            onClick={() => open(a)}
          >
            {a.subject}
          </button>
        ),
      },
      { id: "status", meta: { label: "Status" }, cell: ({ row: { original: a } }) => <StatusLabel status={a.status} /> },
      { id: "audience", meta: { label: "Audience" }, cell: ({ row: { original: a } }) => audienceSummary(a.audience) },
      {
        id: "when",
        meta: { label: "When" },
        cell: ({ row: { original: a } }) =>
          a.startedAt ? (
            `Started ${when(a.startedAt) ?? ""}`
          ) : a.scheduledAt ? (
            `Scheduled for ${when(a.scheduledAt) ?? ""}`
          ) : (
            <span className="text-slate-500">Not scheduled</span>
          ),
      },
      { id: "progress", meta: { label: "Progress" }, cell: ({ row: { original: a } }) => <ProgressCell a={a} /> },
    ],
    [open, when],
  );
  const table = useReactTable({
    data: list ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (a) => String(a.id),
    enableSorting: false,
  });

  const back = (message?: string) => {
    if (message) show("success", message);
    setScreen({ kind: "list" });
  };

  if (screen.kind === "edit")
    return (
      <AnnouncementEditor
        id={screen.id}
        onBack={back}
        onStarted={(id, message) => {
          show("success", message);
          setScreen({ kind: "view", id });
        }}
      />
    );
  if (screen.kind === "view")
    return (
      <>
        <FlashBanner flash={flash} onDismiss={clear} />
        <AnnouncementProgressView id={screen.id} onBack={back} />
      </>
    );
  return (
    <AdminPanel
      title="Announcements"
      description="Write to members by their coverage: choose who, write, preview, test, then send or schedule."
      actions={
        <button type="button" className="btn-primary" onClick={() => setScreen({ kind: "edit", id: null })}>
          <Plus className="h-4 w-4" aria-hidden />
          New announcement
        </button>
      }
    >
      <FlashBanner flash={flash} onDismiss={clear} />
      <TableState
        state={list === null ? (failed ? "error" : "loading") : list.length === 0 ? "empty" : "ready"}
        loadingText="Loading announcements..."
        errorText="The announcements could not be loaded."
        emptyText={
          <EmptyList
            icon={Megaphone}
            title="No announcements yet"
            hint="Write one to members by their coverage status, plan, state or join date."
          />
        }
        onRetry={() => void load()}
      >
        <DataTable table={table} caption="Announcements" testId="announcements" />
      </TableState>
    </AdminPanel>
  );
}
