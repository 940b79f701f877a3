import { getCoreRowModel, useReactTable, type RowSelectionState, type SortingState, type Updater } from "@tanstack/react-table";
import { Download, Eye, LoaderCircle, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { backToQuery, useAddressQuery, useSearchBox, type QueryChanges } from "~/components/admin/useAddressQuery";
import { ListSearchForm, SearchField } from "~/components/admin/ListSearch";
import { DataTable, PageControls, TableState, type AdminColumn } from "~/components/admin/DataTable";
import { ConfirmDialog, FlashBanner } from "~/components/admin/Feedback";
import {
  DEFAULT_SORT,
  MESSAGES,
  SORTS,
  SUBMISSION_STATUSES,
  SUBMISSION_TYPES,
  STATUS_LABELS,
  TYPE_LABELS,
  idsByTableOf,
  isFiltered,
  listSearchParams,
  submissionQueryFromAddress,
  type Assignee,
  type SubmissionSort,
  type SubmissionsPage,
  type SubmissionStatus,
  type SubmissionSummary,
} from "../contract";
import { formatPhone } from "~/domain/formats";
import { usePublicConfig } from "~/components/usePublicConfig";
import { formatSubmissionDate, shortDetails } from "../display";
import { errorText, submissionsApi } from "./api-client";
import { EmailText } from "./EmailText";
import { StatusSelect } from "./StatusControls";
import { SubmissionDetailDialog, type MembershipSectionComponent } from "./SubmissionDetailDialog";

const SORT_LABELS: Record<SubmissionSort, string> = {
  date_desc: "Newest first",
  date_asc: "Oldest first",
  name_asc: "Name (A-Z)",
  name_desc: "Name (Z-A)",
  email_asc: "Email (A-Z)",
  email_desc: "Email (Z-A)",
  type_asc: "Type (A-Z)",
  type_desc: "Type (Z-A)",
  status_asc: "Status (Pending first)",
  status_desc: "Status (Completed first)",
};

/** The state of the history entry that opening a submission pushes. */
const OPENED_VIEW = { openedView: true } as const;

/**
 * 'Form & Application Submissions': every submission of the four sources in one table, with
 * search, type and status filters, sorting and pages done by the server, per-row status and
 * delete, bulk delete of the selected rows, a detail dialog and CSV export. Any admin.
 */
export function SubmissionsPanel({ membershipSection }: { membershipSection?: MembershipSectionComponent }) {
  const [params, update] = useAddressQuery();
  const query = useMemo(() => submissionQueryFromAddress(params), [params]);
  const listParams = useMemo(() => listSearchParams(query).toString(), [query]);
  // The page shown and the query it answers: an older answer never replaces a newer one.
  const [loaded, setLoaded] = useState<{ key: string; page: SubmissionsPage } | null>(null);
  const data = loaded?.page ?? null;
  const setData = (change: (page: SubmissionsPage) => SubmissionsPage) => setLoaded((l) => l && { ...l, page: change(l.page) });
  const [failed, setFailed] = useState(false);
  const [reload, setReload] = useState(0);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [confirm, setConfirm] = useState<{ kind: "one"; submission: SubmissionSummary } | { kind: "many"; ids: string[] } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [viewing, setViewing] = useState<SubmissionSummary | null>(null);
  const { flash, show, clear } = useFlashMessage();
  // The submission last shown, whose row gets the focus when its dialog closes and its opener is gone.
  const lastViewed = useRef<string | null>(null);

  const requestKey = `${listParams}#${reload}`;
  useEffect(() => {
    const controller = new AbortController();
    submissionsApi
      .list(new URLSearchParams(listParams), controller.signal)
      .then((body) => {
        if (controller.signal.aborted) return;
        setLoaded({ key: requestKey, page: body });
        setFailed(false);
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        // A load failure yields an empty list and the spec's message.
        setLoaded(null);
        setFailed(true);
      });
    return () => controller.abort();
  }, [listParams, reload, requestKey]);
  const loading = !failed && loaded?.key !== requestKey;

  // The open submission is in the address (view=contact_12): opening pushes it, so Back closes
  // the dialog; a reload or a link opens it again, from the list or else from the server.
  const viewId = params.get("view");
  const viewingId = viewing?.id ?? null;
  const listedRow = viewId ? data?.submissions.find((s) => s.id === viewId) : undefined;
  useEffect(() => {
    if (!viewId) {
      setViewing(null);
      return;
    }
    lastViewed.current = viewId;
    if (viewingId === viewId) return;
    if (listedRow) {
      setViewing(listedRow);
      return;
    }
    const controller = new AbortController();
    submissionsApi
      .detail(viewId, controller.signal)
      .then((detail) => !controller.signal.aborted && setViewing(detail))
      .catch((err) => {
        if (controller.signal.aborted) return;
        update({ view: null });
        show("error", errorText(err));
      });
    return () => controller.abort();
  }, [viewId, viewingId, listedRow, update, show]);

  function openView(submission: SubmissionSummary) {
    setViewing(submission);
    lastViewed.current = submission.id;
    update({ view: submission.id }, { push: { state: OPENED_VIEW } });
  }

  /** Closing goes back when opening pushed the address; a dialog opened from a link or an old entry drops the id in place. */
  function closeView() {
    backToQuery({ view: null }, (state) => (state as typeof OPENED_VIEW | null)?.openedView === true);
  }

  const viewButton = () => {
    const id = lastViewed.current;
    if (!id) return null;
    const buttons = document.querySelectorAll<HTMLElement>(`[data-view-button="${CSS.escape(id)}"]`);
    return [...buttons].find((b) => b.getClientRects().length > 0) ?? null;
  };

  // Selected rows are cleared whenever the search, type or status filter changes.
  const filterKey = `${query.search}\u0000${query.type}\u0000${query.status}\u0000${query.assigned}`;
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (lastFilterKey !== filterKey) {
    setLastFilterKey(filterKey);
    setRowSelection({});
  }

  const [sortColumn, sortDir] = query.sort.split("_") as [string, "asc" | "desc"];
  const sorting: SortingState = [{ id: sortColumn, desc: sortDir === "desc" }];
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = typeof updater === "function" ? updater(sorting) : updater;
    const first = next[0];
    const sort = first ? `${first.id}_${first.desc ? "desc" : "asc"}` : DEFAULT_SORT;
    update({ sort: sort === DEFAULT_SORT ? null : sort, page: null });
  };

  const setBusy = (id: string, busy: boolean) =>
    setBusyIds((prev) => {
      const next = new Set(prev);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  async function changeStatus(submission: SubmissionSummary, status: SubmissionStatus) {
    setBusy(submission.id, true);
    try {
      await submissionsApi.setStatus(submission.id, status);
      // On success the row updates locally.
      setData((d) => ({ ...d, submissions: d.submissions.map((s) => (s.id === submission.id ? { ...s, status } : s)) }));
      setViewing((v) => (v && v.id === submission.id ? { ...v, status } : v));
    } catch {
      show("error", MESSAGES.updateFailed);
    } finally {
      setBusy(submission.id, false);
    }
  }

  /** The dialog changed who the submission is assigned to: the row shows it, and leaves 'Assigned to me' when no longer there. */
  function assigned(submission: SubmissionSummary, assignee: Assignee | null) {
    const withAssignee = (s: SubmissionSummary): SubmissionSummary => {
      const { assignedTo: _previous, ...rest } = s;
      return assignee ? { ...rest, assignedTo: assignee } : rest;
    };
    setData((d) => ({ ...d, submissions: d.submissions.map((s) => (s.id === submission.id ? withAssignee(s) : s)) }));
    setViewing((v) => (v && v.id === submission.id ? withAssignee(v) : v));
    if (query.assigned === "me") setReload((n) => n + 1);
  }

  const selectedIds = Object.keys(rowSelection).filter((id) => rowSelection[id]);

  function askBulkDelete() {
    if (!selectedIds.length) {
      show("error", MESSAGES.selectOne);
      return;
    }
    setConfirm({ kind: "many", ids: selectedIds });
  }

  async function confirmDelete() {
    if (!confirm) return;
    const ids = confirm.kind === "one" ? [confirm.submission.id] : confirm.ids;
    setDeleting(true);
    ids.forEach((id) => setBusy(id, true));
    try {
      const deleted = await submissionsApi.remove(idsByTableOf(ids));
      show("success", MESSAGES.deleted(deleted));
      setRowSelection((sel) => Object.fromEntries(Object.entries(sel).filter(([id]) => !ids.includes(id))));
      if (viewing && ids.includes(viewing.id)) closeView();
      setReload((n) => n + 1);
    } catch (err) {
      show("error", confirm.kind === "one" ? MESSAGES.deleteOneFailed : MESSAGES.deleteManyFailed(errorText(err)));
    } finally {
      ids.forEach((id) => setBusy(id, false));
      setDeleting(false);
      setConfirm(null);
    }
  }

  // Built on every render, so each cell's handlers see the address and rows of this render
  // (the table keeps its cells mounted: DataTable calls the templates).
  const { timeZone } = usePublicConfig();
  const columns: AdminColumn<SubmissionSummary>[] = [
    {
      id: "select",
      enableSorting: false,
      meta: { label: "Select", customHeader: true },
      header: ({ table }) => (
        <input
          type="checkbox"
          className="h-4 w-4 accent-brand-700"
          aria-label="Select all submissions on this page"
          checked={table.getIsAllRowsSelected()}
          ref={(el) => {
            if (el) el.indeterminate = table.getIsSomeRowsSelected();
          }}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          className="h-4 w-4 accent-brand-700"
          aria-label={`Select ${row.original.applicantName || row.original.id}`}
          checked={row.getIsSelected()}
          disabled={busyIds.has(row.original.id)}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    },
    {
      id: "name",
      accessorKey: "applicantName",
      meta: { label: "Applicant", primary: true },
      cell: ({ row: { original: s } }) => (
        <span className="flex flex-col">
          <span>{s.applicantName || <span className="text-slate-500">No name</span>}</span>
          <span className="text-xs font-normal text-slate-500">{s.id}</span>
          {s.assignedTo ? <span className="text-xs font-normal text-slate-600">Assigned to {s.assignedTo.name}</span> : null}
        </span>
      ),
    },
    {
      id: "email",
      accessorKey: "applicantEmail",
      meta: { label: "Contact" },
      cell: ({ row: { original: s } }) => (
        <span className="flex flex-col">
          <EmailText email={s.applicantEmail} />
          {s.applicantPhone ? <span className="text-xs whitespace-nowrap text-slate-500">{formatPhone(s.applicantPhone)}</span> : null}
        </span>
      ),
    },
    { id: "type", accessorKey: "formType", meta: { label: "Type" } },
    {
      id: "details",
      accessorKey: "details",
      enableSorting: false,
      meta: { label: "Details" },
      cell: ({ row: { original: s } }) => <span className="block max-w-xs break-words">{shortDetails(s.details)}</span>,
    },
    {
      id: "date",
      accessorKey: "submissionDate",
      meta: { label: "Date" },
      cell: ({ row: { original: s } }) => <span className="whitespace-nowrap">{formatSubmissionDate(s.submissionDate, timeZone)}</span>,
    },
    {
      id: "status",
      accessorKey: "status",
      meta: { label: "Status" },
      cell: ({ row: { original: s } }) => (
        <span className="flex items-center gap-2">
          <StatusSelect
            value={s.status}
            label={`Status of ${s.applicantName || s.id}`}
            busy={busyIds.has(s.id)}
            onChange={(status) => void changeStatus(s, status)}
          />
          {busyIds.has(s.id) ? <LoaderCircle className="h-4 w-4 animate-spin text-brand-700" aria-label="Updating" role="img" /> : null}
        </span>
      ),
    },
    {
      id: "actions",
      enableSorting: false,
      meta: { actions: true },
      cell: ({ row: { original: s } }) => (
        <div className="flex flex-wrap justify-end gap-1">
          <button
            type="button"
            className="btn-ghost px-2.5"
            onClick={() => openView(s)}
            aria-label={`View ${s.applicantName || s.id}`}
            data-view-button={s.id}
          >
            <Eye className="h-4 w-4" aria-hidden />
            <span aria-hidden>View</span>
          </button>
          <button
            type="button"
            className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
            onClick={() => setConfirm({ kind: "one", submission: s })}
            disabled={busyIds.has(s.id)}
            aria-label={`Delete ${s.applicantName || s.id}`}
          >
            <Trash2 className="h-4 w-4" aria-hidden />
            <span aria-hidden>Delete</span>
          </button>
        </div>
      ),
    },
  ];

  const table = useReactTable({
    data: data?.submissions ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (s) => s.id,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableRowSelection: (row) => !busyIds.has(row.original.id),
    state: { sorting, rowSelection },
    onSortingChange,
    onRowSelectionChange: setRowSelection,
  });

  const exportParams = listSearchParams(query, { paged: false });
  const filtered = isFiltered(query);
  const state = failed ? "error" : data === null ? "loading" : data.submissions.length === 0 ? "empty" : "ready";

  return (
    <AdminPanel
      title="Form & Application Submissions"
      description="View and manage all form submissions, membership applications, and contact requests."
      actions={
        <div className="flex flex-wrap gap-2">
          <a className="btn-outline" href={submissionsApi.exportHref(exportParams)} download>
            <Download className="h-4 w-4" aria-hidden />
            Export CSV
          </a>
          <button type="button" className="btn-danger" onClick={askBulkDelete} disabled={deleting}>
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete Selected{selectedIds.length ? ` (${selectedIds.length})` : ""}
          </button>
        </div>
      }
    >
      <FlashBanner flash={flash} onDismiss={clear} />
      <SubmissionFilters
        search={query.search}
        type={query.type}
        status={query.status}
        sort={query.sort}
        assignedToMe={query.assigned === "me"}
        onChange={update}
      />
      {selectedIds.length ? (
        <p className="mb-3 text-sm text-slate-700" aria-live="polite">
          {selectedIds.length} selected
        </p>
      ) : null}
      <div aria-busy={loading} data-testid="submissions-list" className={loading && data ? "opacity-60 transition-opacity" : undefined}>
        <TableState
          state={state}
          loadingText="Loading submissions..."
          errorText={MESSAGES.loadFailed}
          emptyText={
            <>
              <p className="font-semibold text-brand-900">{MESSAGES.emptyTitle}</p>
              <p className="mt-1">{filtered ? MESSAGES.emptyFiltered : MESSAGES.emptyNone}</p>
            </>
          }
          onRetry={() => {
            setFailed(false);
            setReload((n) => n + 1);
          }}
        >
          <DataTable table={table} caption="Form and application submissions" testId="submissions" rowBusy={(s) => busyIds.has(s.id)} />
        </TableState>
      </div>
      {data && data.pagination.total > 0 ? (
        <PageControls
          label="Submissions"
          pagination={{ ...data.pagination, pageSize: data.pagination.limit }}
          busy={loading}
          onPage={(page) => update({ page: page > 1 ? String(page) : null })}
          onPageSize={(size) => update({ limit: size === 25 ? null : String(size), page: null })}
        />
      ) : null}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === "many" ? "Delete Submissions" : "Delete Submission"}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={deleting}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void confirmDelete()}
      >
        {confirm ? <p>{confirm.kind === "one" ? MESSAGES.confirmDeleteOne : MESSAGES.confirmDeleteMany(confirm.ids.length)}</p> : null}
      </ConfirmDialog>
      <SubmissionDetailDialog
        summary={viewing}
        onClose={closeView}
        returnFocus={viewButton}
        busy={viewing ? busyIds.has(viewing.id) : false}
        onStatus={(status) => viewing && void changeStatus(viewing, status)}
        onAssigned={(assignee) => viewing && assigned(viewing, assignee)}
        membershipSection={membershipSection}
      />
    </AdminPanel>
  );
}

/** The controls of the list. Every change, with any search still being typed, goes to the address in one step. */
function SubmissionFilters(props: {
  search: string;
  type: string;
  status: string;
  sort: SubmissionSort;
  assignedToMe: boolean;
  onChange: (changes: QueryChanges) => void;
}) {
  const box = useSearchBox(props.search, (search) => props.onChange({ search, page: null }));
  const change = (changes: QueryChanges) => props.onChange({ ...changes, search: box.flush(), page: null });
  return (
    <ListSearchForm
      box={box}
      className="mb-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto_auto] lg:items-end"
    >
      <SearchField
        box={box}
        id="submission-search"
        label="Search submissions"
        placeholder="Name, email or details"
        className="min-w-0 sm:col-span-2 lg:col-span-1"
      />
      <div>
        <label htmlFor="submission-type" className="field-label">
          Type
        </label>
        <select
          id="submission-type"
          className="field-input"
          value={props.type}
          onChange={(e) => change({ type: e.target.value === "all" ? null : e.target.value })}
        >
          <option value="all">All Types</option>
          {SUBMISSION_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="submission-status" className="field-label">
          Status
        </label>
        <select
          id="submission-status"
          className="field-input"
          value={props.status}
          onChange={(e) => change({ status: e.target.value === "all" ? null : e.target.value })}
        >
          <option value="all">All Statuses</option>
          {SUBMISSION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="submission-sort" className="field-label">
          Sort by
        </label>
        <select
          id="submission-sort"
          className="field-input"
          value={props.sort}
          onChange={(e) => change({ sort: e.target.value === DEFAULT_SORT ? null : e.target.value })}
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm font-semibold whitespace-nowrap text-slate-700 lg:min-h-10">
        <input
          type="checkbox"
          className="h-4 w-4 accent-brand-700"
          checked={props.assignedToMe}
          onChange={(e) => change({ assigned: e.target.checked ? "me" : null })}
        />
        Assigned to me
      </label>
      <button type="submit" className="btn-primary">
        Search
      </button>
    </ListSearchForm>
  );
}
