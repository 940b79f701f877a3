import { getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useEffect, useMemo, useState } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "~/platform/paging";
import { useAddressQuery } from "~/components/admin/useAddressQuery";
import { type AuditPage } from "../contract";
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditEntry } from "~/domain/audit";
import { useAssociationTime } from "~/components/useAssociationTime";
import { auditApi, errorText } from "./api-client";
import { DataTable, PageControls, TableState, type AdminColumn } from "~/components/admin/DataTable";

/** What an entry was done to, with the change it made where it records one (a role, an assignee, a status). */
export function describeTarget(e: AuditEntry): string {
  const details = e.details ?? {};
  const parts: string[] = [];
  if (e.target_label) parts.push(e.target_label);
  if (e.action === "staff.role_change" && details.from && details.to) parts.push(`${String(details.from)} → ${String(details.to)}`);
  if (e.action === "submissions.status" && details.from && details.to) parts.push(`${String(details.from)} → ${String(details.to)}`);
  if (e.action === "submissions.assign") parts.push(`${String(details.from ?? "nobody")} → ${String(details.to ?? "nobody")}`);
  if (e.action === "members.export") {
    if (details.q) parts.push(`search "${String(details.q)}"`);
    if (details.status && details.status !== "all") parts.push(String(details.status));
  }
  if (e.action === "members.import" && details.filename) parts.push(String(details.filename));
  if ((e.action === "members.update" || e.action === "account.contact_update") && Array.isArray(details.fields))
    parts.push(`changed ${details.fields.map(String).join(", ")}`);
  if (e.action === "staff.settings") {
    if (Array.isArray(details.fields)) parts.push(`changed ${details.fields.map(String).join(", ")}`);
    if (details.announcements === "granted") parts.push("may now write and send announcements");
    if (details.announcements === "revoked") parts.push("may no longer write and send announcements");
  }
  return parts.join(" · ") || "—";
}

/** The audit log (super_admin): newest first, filtered by person and by action, in server-side pages. */
export function AuditPanel() {
  // The filters and the page live in the address (a link or a reload shows the same entries); a value that is not one is left out.
  const [params, update] = useAddressQuery();
  const actorId = /^[1-9]\d{0,9}$/.test(params.get("actor") ?? "") ? params.get("actor")! : "";
  const action = (AUDIT_ACTIONS as readonly string[]).includes(params.get("action") ?? "") ? params.get("action")! : "";
  const page = /^[1-9]\d{0,5}$/.test(params.get("page") ?? "") ? Number(params.get("page")) : 1;
  const pageSize = (PAGE_SIZES as readonly number[]).includes(Number(params.get("pageSize")))
    ? Number(params.get("pageSize"))
    : DEFAULT_PAGE_SIZE;
  const setPage = (next: number) => update({ page: next === 1 ? null : String(next) });
  const [data, setData] = useState<AuditPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (actorId) query.set("actorId", actorId);
    if (action) query.set("action", action);
    setLoading(true);
    auditApi
      .list(query, controller.signal)
      .then((body) => {
        if (controller.signal.aborted) return; // an answer to an older query
        setData(body);
        setError(null);
      })
      .catch((err) => !controller.signal.aborted && setError(errorText(err)))
      .finally(() => !controller.signal.aborted && setLoading(false));
    return () => controller.abort();
  }, [actorId, action, page, pageSize, reload]);

  const when = useAssociationTime();
  const columns = useMemo<AdminColumn<AuditEntry>[]>(
    () => [
      {
        id: "created_at",
        accessorKey: "created_at",
        meta: { label: "When", primary: true },
        cell: (c) => when(c.row.original.created_at) ?? "Never",
      },
      { id: "actor", accessorFn: (e) => e.actor_label ?? "System", meta: { label: "Who" } },
      { id: "action", accessorFn: (e) => AUDIT_ACTION_LABELS[e.action] ?? e.action, meta: { label: "Action" } },
      { id: "target", accessorFn: describeTarget, meta: { label: "On" } },
      { id: "rows", accessorFn: (e) => (e.row_count === null ? "—" : e.row_count.toLocaleString("en-US")), meta: { label: "Rows" } },
    ],
    [when],
  );
  const table = useReactTable({
    data: data?.entries ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (e) => String(e.id),
    enableSorting: false,
    manualPagination: true,
  });
  const state = data === null ? (error ? "error" : "loading") : data.entries.length === 0 ? "empty" : "ready";

  return (
    <AdminPanel title="Audit Log" description="Every staff action on members, staff accounts and imports, newest first.">
      {error && data ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Failed to load the audit log: {error}
        </p>
      ) : null}
      <div className="mb-5 flex flex-wrap items-end gap-3">
        {/* On a phone a filter is as wide as the screen at most: the longest action's label would make the tab scroll sideways. */}
        <div className="min-w-0 max-w-full">
          <label htmlFor="audit-actor" className="field-label">
            Person
          </label>
          <select
            id="audit-actor"
            className="field-input w-auto max-w-full"
            value={actorId}
            onChange={(e) => {
              update({ actor: e.target.value, page: null });
            }}
          >
            <option value="">Everyone</option>
            {(data?.actors ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 max-w-full">
          <label htmlFor="audit-action" className="field-label">
            Action
          </label>
          <select
            id="audit-action"
            className="field-input w-auto max-w-full"
            value={action}
            onChange={(e) => {
              update({ action: e.target.value, page: null });
            }}
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_ACTION_LABELS[a]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div aria-busy={loading}>
        <TableState
          state={state}
          loadingText="Loading the audit log..."
          errorText={`The audit log could not be loaded: ${error ?? ""}`}
          emptyText={actorId || action ? "No entries match these filters." : "No staff actions recorded yet."}
          onRetry={() => setReload((n) => n + 1)}
        >
          <DataTable table={table} caption="Audit log" testId="audit" />
        </TableState>
      </div>
      {data && data.pagination.total > 0 ? (
        <PageControls
          label="Audit log"
          pagination={data.pagination}
          busy={loading}
          onPage={setPage}
          onPageSize={(size) => {
            update({ pageSize: size === DEFAULT_PAGE_SIZE ? null : String(size), page: null });
          }}
        />
      ) : null}
    </AdminPanel>
  );
}
