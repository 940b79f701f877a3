import { getCoreRowModel, useReactTable, type SortingState, type Updater } from "@tanstack/react-table";
import { Download, Pencil, Save, Trash2, UserCheck, UserX } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { MixedScriptsMark } from "~/components/admin/MixedScriptsMark";
import { AdminPanel } from "~/components/AdminPanel";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { useAddressQuery, useSearchBox, type QueryChanges } from "~/components/admin/useAddressQuery";
import { ListSearchForm, SearchField } from "~/components/admin/ListSearch";
import { DEFAULT_PAGE_SIZE } from "~/platform/paging";
import { FormDialog } from "~/components/admin/FormDialog";
import { Field, inputProps } from "~/components/forms/FormParts";
import { CONTACT_LABELS } from "~/features/account/contract";
import { DATE_FORMATS_TEXT } from "~/features/member-import/birthdate";
import { MEMBER_SORTS, memberEditSchema, type MemberEditInput, type MemberRow, type MembersPage, type MemberSort } from "../contract";
import { useAssociationTime } from "~/components/useAssociationTime";
import { errorText, membersApi } from "./api-client";
import { DataTable, PageControls, TableState, type AdminColumn } from "~/components/admin/DataTable";
import { ConfirmDialog, FlashBanner, StatusBadge } from "~/components/admin/Feedback";
import { MembershipDialog, MembershipRowActions, type MembershipMember } from "~/features/membership/admin/MembershipDialog";
import type { CoverageCounts } from "~/features/membership/statuses";
import { CoverageBadge, CoverageFilter, coverageFilterOf } from "./CoverageStatus";

export const memberName = (m: Pick<MemberRow, "first_name" | "last_name">) => [m.first_name, m.last_name].filter(Boolean).join(" ");

/** The list's query as the API takes it, from the page's own URL (so a page of results can be linked and reloaded). */
function listQuery(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of ["q", "status", "sort", "dir", "page", "pageSize"]) {
    const v = params.get(key);
    if (v) out.set(key, v);
  }
  const coverage = coverageFilterOf(params);
  if (coverage) out.set("coverage", coverage);
  return out;
}

/**
 * Members: search, status filter, server-side pages and sorting, activate/deactivate, delete
 * with confirmation, and CSV export of the filtered list. Any admin.
 */
export function MembersPanel({ superAdmin = false }: { superAdmin?: boolean }) {
  const [params, update] = useAddressQuery();
  const query = useMemo(() => listQuery(params), [params]);
  const queryKey = query.toString();
  // The page shown and the query it answers: an older answer never replaces a newer one.
  const [loaded, setLoaded] = useState<{ key: string; page: MembersPage } | null>(null);
  const data = loaded?.page ?? null;
  const [failed, setFailed] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<MemberRow | null>(null);
  // Deactivating asks first (issue 48: a click-everything run deactivated five members unnoticed); activating does not.
  const [deactivating, setDeactivating] = useState<MemberRow | null>(null);
  const [editing, setEditing] = useState<MemberRow | null>(null);
  const [membershipOf, setMembershipOf] = useState<{ member: MembershipMember; payment: boolean } | null>(null);
  const [reload, setReload] = useState(0);
  const { flash, show, clear } = useFlashMessage();

  const requestKey = `${queryKey}#${reload}`;
  useEffect(() => {
    const controller = new AbortController();
    membersApi
      .list(new URLSearchParams(queryKey), controller.signal)
      .then((body) => {
        if (controller.signal.aborted) return;
        setLoaded({ key: requestKey, page: body });
        setFailed(false);
      })
      .catch((err) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        show("error", `Failed to load members: ${errorText(err)}`);
      });
    return () => controller.abort();
  }, [queryKey, reload, requestKey, show]);
  const loading = !failed && loaded?.key !== requestKey;

  const sort = (MEMBER_SORTS as readonly string[]).includes(params.get("sort") ?? "")
    ? (params.get("sort") as MemberSort)
    : "certificate_number";
  const sorting: SortingState = [{ id: sort, desc: params.get("dir") === "desc" }];
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = typeof updater === "function" ? updater(sorting) : updater;
    const first = next[0];
    update({ sort: first?.id ?? null, dir: first?.desc ? "desc" : null, page: null });
  };

  async function toggleActive(member: MemberRow) {
    setBusyId(member.id);
    try {
      const updated = await membersApi.setActive(member.id, !member.is_active);
      show("success", `${updated.certificate_number} is now ${updated.is_active ? "active" : "inactive"}.`);
      setLoaded((l) => l && { ...l, page: { ...l.page, members: l.page.members.map((m) => (m.id === updated.id ? updated : m)) } });
    } catch (err) {
      show("error", `Failed to update member: ${errorText(err)}`);
    } finally {
      setBusyId(null);
      setDeactivating(null);
    }
  }

  function saved(updated: MemberRow) {
    setEditing(null);
    show("success", `Member ${updated.certificate_number} was saved.`);
    setLoaded((l) => l && { ...l, page: { ...l.page, members: l.page.members.map((m) => (m.id === updated.id ? updated : m)) } });
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusyId(deleting.id);
    try {
      await membersApi.remove(deleting.id);
      show("success", `Member ${deleting.certificate_number} was deleted.`);
      setReload((n) => n + 1);
    } catch (err) {
      show("error", `Failed to delete member: ${errorText(err)}`);
    } finally {
      setBusyId(null);
      setDeleting(null);
    }
  }

  const when = useAssociationTime();
  const columns = useMemo<AdminColumn<MemberRow>[]>(
    () => [
      { id: "certificate_number", accessorKey: "certificate_number", meta: { label: "Certificate number", primary: true } },
      {
        id: "name",
        accessorFn: (m) => memberName(m),
        meta: { label: "Name" },
        cell: (c) => {
          const name = c.getValue<string>();
          return name ? (
            <>
              {name}
              <MixedScriptsMark name={name} />
            </>
          ) : (
            <span className="text-slate-500">No name</span>
          );
        },
      },
      {
        id: "contact",
        enableSorting: false,
        meta: { label: "Contact" },
        cell: ({ row: { original: m } }) => <MemberContact member={m} />,
      },
      {
        id: "status",
        accessorKey: "is_active",
        enableSorting: false,
        meta: { label: "Status" },
        cell: (c) => <StatusBadge active={c.row.original.is_active} />,
      },
      {
        id: "coverage",
        enableSorting: false,
        meta: { label: "Coverage" },
        cell: (c) => <CoverageBadge coverage={c.row.original.coverage} />,
      },
      {
        id: "last_login_at",
        accessorKey: "last_login_at",
        meta: { label: "Last sign-in" },
        cell: (c) => when(c.row.original.last_login_at) ?? "Never",
      },
      {
        id: "actions",
        enableSorting: false,
        meta: { actions: true },
        cell: ({ row: { original: m } }) => (
          <div className="flex flex-wrap justify-end gap-1">
            <MembershipRowActions
              member={{ id: m.id, certificate: m.certificate_number, name: memberName(m) }}
              onOpen={(member, payment) => setMembershipOf({ member, payment })}
              disabled={busyId === m.id}
            />
            <button
              type="button"
              className="btn-ghost px-2.5"
              onClick={() => setEditing(m)}
              disabled={busyId === m.id}
              aria-label={`Edit ${m.certificate_number}`}
            >
              <Pencil className="h-4 w-4" aria-hidden />
              <span aria-hidden>Edit</span>
            </button>
            <button
              type="button"
              className="btn-ghost px-2.5"
              onClick={() => (m.is_active ? setDeactivating(m) : void toggleActive(m))}
              disabled={busyId === m.id}
              aria-label={`${m.is_active ? "Deactivate" : "Activate"} ${m.certificate_number}`}
            >
              {m.is_active ? <UserX className="h-4 w-4" aria-hidden /> : <UserCheck className="h-4 w-4" aria-hidden />}
              <span aria-hidden>{m.is_active ? "Deactivate" : "Activate"}</span>
            </button>
            <button
              type="button"
              className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
              onClick={() => setDeleting(m)}
              disabled={busyId === m.id}
              aria-label={`Delete ${m.certificate_number}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
              <span aria-hidden>Delete</span>
            </button>
          </div>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [busyId, when],
  );

  const table = useReactTable({
    data: data?.members ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (m) => String(m.id),
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange,
  });

  const exportQuery = new URLSearchParams(query);
  exportQuery.delete("page");
  exportQuery.delete("pageSize");
  const filtered = !!(params.get("q") || params.get("status") || coverageFilterOf(params));
  const state = data === null ? (failed ? "error" : "loading") : data.members.length === 0 ? "empty" : "ready";

  return (
    <AdminPanel
      title="Members"
      description="Search members by certificate number, name or e-mail, filter them by coverage status, see when they last signed in, edit, deactivate or delete an account, and export the list."
      actions={
        <a className="btn-outline" href={membersApi.exportHref(exportQuery)} download>
          <Download className="h-4 w-4" aria-hidden />
          Export CSV
        </a>
      }
    >
      <FlashBanner flash={flash} onDismiss={clear} />
      <MemberFilters
        q={params.get("q") ?? ""}
        status={params.get("status") ?? "all"}
        coverage={{ value: coverageFilterOf(params), counts: data?.coverageCounts ?? null }}
        onChange={update}
      />
      <div aria-busy={loading} data-testid="members-list" className={loading && data ? "opacity-60 transition-opacity" : undefined}>
        <TableState
          state={state}
          loadingText="Loading members..."
          errorText="The member list could not be loaded."
          emptyText={filtered ? "No members match this search." : "No members yet. Import them from a CSV file on the User Upload page."}
          onRetry={() => setReload((n) => n + 1)}
        >
          <DataTable table={table} caption="Members" testId="members" />
        </TableState>
      </div>
      {data && data.pagination.total > 0 ? (
        <PageControls
          label="Members"
          pagination={data.pagination}
          busy={loading}
          onPage={(page) => update({ page: page > 1 ? String(page) : null })}
          onPageSize={(size) => update({ pageSize: size === DEFAULT_PAGE_SIZE ? null : String(size), page: null })}
        />
      ) : null}
      <EditMemberDialog member={editing} onClose={() => setEditing(null)} onSaved={saved} />
      <MembershipDialog
        member={membershipOf?.member ?? null}
        startWithPayment={membershipOf?.payment ?? false}
        superAdmin={superAdmin}
        onClose={() => setMembershipOf(null)}
        onChanged={() => setReload((n) => n + 1)}
      />
      <ConfirmDialog
        open={deactivating !== null}
        title="Deactivate Member"
        confirmLabel="Deactivate"
        busyLabel="Deactivating..."
        busy={busyId !== null && busyId === deactivating?.id}
        onCancel={() => setDeactivating(null)}
        onConfirm={() => deactivating && void toggleActive(deactivating)}
      >
        {deactivating ? <DeactivateQuestion member={deactivating} /> : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Member"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={busyId !== null && busyId === deleting?.id}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        {deleting ? (
          <p>
            Delete member <span className="font-semibold text-brand-900">{deleting.certificate_number}</span>
            {memberName(deleting) ? ` (${memberName(deleting)})` : ""}? They will be signed out and can no longer sign in. This cannot be
            undone.
          </p>
        ) : null}
      </ConfirmDialog>
    </AdminPanel>
  );
}

/** What deactivating a member does, as the services do it: sessions ended, sign-in refused, no mail while inactive. */
function DeactivateQuestion({ member }: { member: MemberRow }) {
  const name = memberName(member);
  return (
    <>
      <p>
        Deactivate member <span className="font-semibold text-brand-900">{member.certificate_number}</span>
        {name ? ` (${name})` : ""}?
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>They are signed out everywhere at once and cannot sign in until the account is activated again.</li>
        <li>No membership reminders, payment receipts or announcements are sent to them, including mail already waiting.</li>
        <li>Their record, membership and payments are kept; Activate undoes this.</li>
      </ul>
    </>
  );
}

/** The controls of the list. Every change, with any search still being typed, goes to the address in one step. */
function MemberFilters({
  q,
  status,
  coverage,
  onChange,
}: {
  q: string;
  status: string;
  coverage: { value: ReturnType<typeof coverageFilterOf>; counts: CoverageCounts | null };
  onChange: (changes: QueryChanges) => void;
}) {
  const box = useSearchBox(q, (text) => onChange({ q: text, page: null }));
  return (
    <ListSearchForm box={box} className="mb-5 flex flex-wrap items-end gap-3">
      <SearchField
        box={box}
        id="member-search"
        label="Search members"
        placeholder="Certificate number, name or e-mail"
        className="min-w-0 flex-1 basis-64"
      />
      <div>
        <label htmlFor="member-status" className="field-label">
          Status
        </label>
        <select
          id="member-status"
          className="field-input w-auto"
          value={status}
          onChange={(e) => onChange({ status: e.target.value === "all" ? null : e.target.value, q: box.flush(), page: null })}
        >
          <option value="all">All</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
        </select>
      </div>
      <button type="submit" className="btn-primary">
        Search
      </button>
      <CoverageFilter
        value={coverage.value}
        counts={coverage.counts}
        onChange={(next) => onChange({ coverage: next, q: box.flush(), page: null })}
      />
    </ListSearchForm>
  );
}

/** What the member keeps on their account page, and the application they came from. */
function MemberContact({ member: m }: { member: MemberRow }) {
  const address = [m.address1, m.address2, [m.city, [m.state, m.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ")].filter(Boolean);
  if (!m.email && !m.phone && !address.length && m.application_id === null) return <span className="text-slate-500">None given</span>;
  return (
    <div className="space-y-0.5 text-sm">
      {m.email ? <p className="break-all">{m.email}</p> : null}
      {m.phone ? <p>{m.phone}</p> : null}
      {address.length ? <p className="text-slate-600">{address.join(", ")}</p> : null}
      {m.application_id !== null ? <p className="text-xs text-slate-600">From application_{m.application_id}</p> : null}
    </div>
  );
}

const EDIT_LABELS: Record<keyof MemberEditInput, string> = {
  first_name: "First name",
  last_name: "Last name",
  ...CONTACT_LABELS,
  birthdate: "New birthdate",
};

/**
 * Edits a member's name and contact details, and sets a new birthdate (their sign-in
 * password). The birthdate on file is stored only as a keyed digest, so it is never shown:
 * the field starts blank, and blank keeps it.
 */
function EditMemberDialog({
  member,
  onClose,
  onSaved,
}: {
  member: MemberRow | null;
  onClose: () => void;
  onSaved: (updated: MemberRow) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setError(null), [member]);

  async function save(input: MemberEditInput) {
    if (!member) return;
    setBusy(true);
    setError(null);
    try {
      onSaved(await membersApi.update(member.id, input));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const text = (
    fields: Parameters<Parameters<typeof FormDialog<typeof memberEditSchema>>[0]["children"]>[0],
    name: Exclude<keyof MemberEditInput, "birthdate">,
    autoComplete: string,
    type: "text" | "email" | "tel" = "text",
  ) => (
    <Field meta={fields[name]} label={EDIT_LABELS[name]} optional>
      <input {...inputProps(fields[name], { type })} autoComplete={autoComplete} className="field-input" />
    </Field>
  );

  return (
    <FormDialog
      open={member !== null}
      title="Edit Member"
      description={member ? `Certificate number ${member.certificate_number}` : undefined}
      schema={memberEditSchema}
      defaultValue={
        member
          ? {
              first_name: member.first_name ?? "",
              last_name: member.last_name ?? "",
              email: member.email ?? "",
              phone: member.phone ?? "",
              address1: member.address1 ?? "",
              address2: member.address2 ?? "",
              city: member.city ?? "",
              state: member.state ?? "",
              zip: member.zip ?? "",
              birthdate: "",
            }
          : undefined
      }
      busy={busy}
      error={error}
      submitLabel="Save"
      busyLabel="Saving..."
      submitIcon={<Save className="h-4 w-4" aria-hidden />}
      onClose={onClose}
      onSubmit={(input) => void save(input)}
    >
      {(fields) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            {text(fields, "first_name", "off")}
            {text(fields, "last_name", "off")}
          </div>
          {text(fields, "email", "off", "email")}
          {text(fields, "phone", "off", "tel")}
          {text(fields, "address1", "off")}
          {text(fields, "address2", "off")}
          <div className="grid gap-4 sm:grid-cols-[1fr_5rem_7rem]">
            {text(fields, "city", "off")}
            {text(fields, "state", "off")}
            {text(fields, "zip", "off")}
          </div>
          <Field
            meta={fields.birthdate}
            label={EDIT_LABELS.birthdate}
            optional
            hint={`Only to change it: ${DATE_FORMATS_TEXT}. The birthdate on file is never shown; leave this blank to keep it. A new one signs the member out.`}
          >
            {({ ariaDescribedBy }) => (
              <input {...inputProps(fields.birthdate, { type: "text", ariaDescribedBy })} className="field-input" autoComplete="off" />
            )}
          </Field>
        </>
      )}
    </FormDialog>
  );
}
