import { getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { LoaderCircle, Megaphone, Plus } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { DataTable, TableState, type AdminColumn } from "~/components/admin/DataTable";
import { EmptyList, FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { backToQuery, useAddressQuery } from "~/components/admin/useAddressQuery";
import { useAssociationTime } from "~/components/useAssociationTime";
import type { AnnouncementSummary } from "../contract";
import { announcementsApi, errorText } from "./api-client";
import { audienceSummary, donePercent, formatCount, sentOf, skippedTotal } from "./display";
import { AnnouncementEditor } from "./AnnouncementEditor";
import { AnnouncementProgressView } from "./AnnouncementProgress";
import { ProgressBar, StatusLabel } from "./parts";

/** How often a list or page with a send under way asks again. */
export const POLL_MS = 3000;

type Screen = { kind: "list" } | { kind: "edit"; id: number | null } | { kind: "view"; id: number } | { kind: "loading"; id: number };
/** Which screen an announcement opens in: the editor while it is a draft or scheduled, else its progress page. */
type ScreenKind = "edit" | "view";
const screenKindOf = (status: AnnouncementSummary["status"]): ScreenKind =>
  status === "draft" || status === "scheduled" ? "edit" : "view";

/** The state of the entry an announcement was opened into (Back, or Back to announcements, leaves it). */
const OPENED_ANNOUNCEMENT = { openedAnnouncement: true };
const openedHere = (state: unknown) => (state as typeof OPENED_ANNOUNCEMENT | null)?.openedAnnouncement === true;

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
  // The screen is the address's (`?tab=announcements&id=N`, `id=new`): a reload keeps it, Back leaves it (issue 48).
  const [params, update] = useAddressQuery();
  const idParam = params.get("id");
  // What each announcement opened in (known from the list, a send started, or asked for on a reload).
  const [kinds, setKinds] = useState<Record<number, ScreenKind>>({});
  // The draft the open "new" editor saved: the address names it, the editor stays as it is.
  const [created, setCreated] = useState<number | null>(null);
  const openedId = idParam !== null && /^[1-9]\d{0,15}$/.test(idParam) ? Number(idParam) : null;
  const screen: Screen =
    idParam === "new" || (openedId !== null && openedId === created)
      ? { kind: "edit", id: null }
      : openedId === null
        ? { kind: "list" }
        : kinds[openedId]
          ? { kind: kinds[openedId], id: openedId }
          : { kind: "loading", id: openedId };
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
    (a: AnnouncementSummary) => {
      setKinds((k) => ({ ...k, [a.id]: screenKindOf(a.status) }));
      update({ tab: "announcements", id: String(a.id) }, { push: { state: OPENED_ANNOUNCEMENT } });
    },
    [update],
  );

  // Opened by its address alone (a reload, a link): which screen it is asks the announcement.
  const loadingId = screen.kind === "loading" ? screen.id : null;
  useEffect(() => {
    if (loadingId === null) return;
    let live = true;
    announcementsApi.get(loadingId).then(
      (a) => live && setKinds((k) => ({ ...k, [a.id]: screenKindOf(a.status) })),
      (err: unknown) => {
        if (!live) return;
        show("error", `The announcement could not be loaded: ${errorText(err)}`);
        update({ id: null });
      },
    );
    return () => {
      live = false;
    };
  }, [loadingId, show, update]);
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

  /** Back to the list: the entry behind when opening pushed this one, else the address in place. */
  const back = (message?: string) => {
    if (message) show("success", message);
    setCreated(null);
    backToQuery({ id: null }, openedHere);
  };

  if (screen.kind === "loading")
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
        Loading the announcement...
      </p>
    );
  if (screen.kind === "edit")
    return (
      <AnnouncementEditor
        key={screen.id ?? "new"}
        id={screen.id}
        onBack={back}
        onCreated={(id) => {
          setCreated(id);
          update({ tab: "announcements", id: String(id) });
        }}
        onStarted={(id, message) => {
          show("success", message);
          setCreated(null);
          setKinds((k) => ({ ...k, [id]: "view" }));
          update({ tab: "announcements", id: String(id) });
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
        <button
          type="button"
          className="btn-primary"
          onClick={() => update({ tab: "announcements", id: "new" }, { push: { state: OPENED_ANNOUNCEMENT } })}
        >
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
