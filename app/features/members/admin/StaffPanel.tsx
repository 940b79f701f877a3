import { getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { KeyRound, Megaphone, Plus, Settings2, ShieldCheck, Trash2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { FormDialog } from "~/components/admin/FormDialog";
import { Field, inputProps, selectProps } from "~/components/forms/FormParts";
import { AdminPanel } from "~/components/AdminPanel";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import {
  MIN_STAFF_PASSWORD_LENGTH,
  ROLE_LABELS,
  STAFF_ROLES,
  createStaffSchema,
  resetPasswordSchema,
  staffSettingsFormSchema,
  type CreateStaffInput,
  type StaffRole,
  type StaffRow,
} from "../contract";
import { useAssociationTime } from "~/components/useAssociationTime";
import { errorText, staffApi } from "./api-client";
import { DataTable, TableState, type AdminColumn } from "~/components/admin/DataTable";
import { ConfirmDialog, FlashBanner } from "~/components/admin/Feedback";
import { STAFF_PERMISSION_LABELS } from "~/features/auth/staff-permissions";

type Dialog =
  | { kind: "add" }
  | { kind: "password"; staff: StaffRow }
  | { kind: "settings"; staff: StaffRow }
  | { kind: "remove"; staff: StaffRow }
  | { kind: "promote"; staff: StaffRow }
  | null;

const PASSWORD_HINT = `At least ${MIN_STAFF_PASSWORD_LENGTH} characters.`;

/**
 * Staff accounts (super_admin): list, add, reset a password, change a role, remove. Core
 * admins and the signed-in person cannot be demoted or removed here (the server enforces the
 * same rules, and the last super_admin rule, whatever the page shows).
 */
export function StaffPanel({ currentUserId }: { currentUserId: number }) {
  const [staff, setStaff] = useState<StaffRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [rowBusy, setRowBusy] = useState<number | null>(null);
  const { flash, show, clear } = useFlashMessage();

  const load = useCallback(async () => {
    try {
      setStaff(await staffApi.list());
      setFailed(false);
    } catch (err) {
      setFailed(true);
      show("error", `Failed to load staff accounts: ${errorText(err)}`);
    }
  }, [show]);
  useEffect(() => {
    void load();
  }, [load]);

  async function changeRole(row: StaffRow, role: StaffRole) {
    setRowBusy(row.id);
    try {
      const updated = await staffApi.changeRole(row.id, role);
      show("success", `${updated.username} is now a ${ROLE_LABELS[updated.role].toLowerCase()}.`);
    } catch (err) {
      show("error", `Failed to change role: ${errorText(err)}`);
    } finally {
      setRowBusy(null);
      await load();
    }
  }

  async function remove(row: StaffRow) {
    setBusy(true);
    try {
      await staffApi.remove(row.id);
      show("success", `Staff account ${row.username} was removed.`);
      setDialog(null);
    } catch (err) {
      show("error", `Failed to remove staff account: ${errorText(err)}`);
      setDialog(null);
    } finally {
      setBusy(false);
      await load();
    }
  }

  const when = useAssociationTime();
  const columns = useMemo<AdminColumn<StaffRow>[]>(
    () => [
      {
        id: "username",
        accessorKey: "username",
        meta: { label: "Username", primary: true },
        cell: ({ row: { original: s } }) => (
          <span className="inline-flex flex-wrap items-center gap-2">
            {s.username}
            {s.id === currentUserId ? (
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">You</span>
            ) : null}
            {s.is_core_admin ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                <ShieldCheck className="h-3.5 w-3.5" aria-hidden />
                Core admin
              </span>
            ) : null}
            {s.permissions.includes("announcements") ? (
              <span
                className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900"
                title={STAFF_PERMISSION_LABELS.announcements}
              >
                <Megaphone className="h-3.5 w-3.5" aria-hidden />
                Announcements
              </span>
            ) : null}
          </span>
        ),
      },
      {
        id: "email",
        accessorKey: "email",
        meta: { label: "E-mail" },
        cell: ({ row: { original: s } }) =>
          s.email ? <span className="break-all">{s.email}</span> : <span className="text-slate-500">None</span>,
      },
      {
        id: "role",
        accessorKey: "role",
        meta: { label: "Role" },
        cell: ({ row: { original: s } }) => {
          const locked = s.is_core_admin || s.id === currentUserId;
          return (
            <select
              aria-label={`Role for ${s.username}`}
              className="field-input w-auto py-1.5"
              value={dialog?.kind === "promote" && dialog.staff.id === s.id ? "super_admin" : s.role}
              disabled={locked || rowBusy === s.id}
              title={locked ? (s.is_core_admin ? "A core admin keeps the super admin role" : "You cannot change your own role") : undefined}
              onChange={(e) => {
                const role = e.target.value as StaffRole;
                // Super admins manage staff, feeds and the audit log: that takes a confirmation.
                if (role === "super_admin") setDialog({ kind: "promote", staff: s });
                else void changeRole(s, role);
              }}
            >
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          );
        },
      },
      {
        id: "last_login_at",
        accessorKey: "last_login_at",
        meta: { label: "Last sign-in" },
        cell: (c) => when(c.row.original.last_login_at) ?? "Never",
      },
      {
        id: "actions",
        meta: { actions: true },
        cell: ({ row: { original: s } }) => (
          <div className="flex flex-wrap justify-end gap-1">
            <button
              type="button"
              className="btn-ghost px-2.5"
              onClick={() => setDialog({ kind: "settings", staff: s })}
              aria-label={`Settings for ${s.username}`}
            >
              <Settings2 className="h-4 w-4" aria-hidden />
              <span aria-hidden>Settings</span>
            </button>
            <button
              type="button"
              className="btn-ghost px-2.5"
              onClick={() => setDialog({ kind: "password", staff: s })}
              aria-label={`Reset password for ${s.username}`}
            >
              <KeyRound className="h-4 w-4" aria-hidden />
              <span aria-hidden>Reset password</span>
            </button>
            {s.is_core_admin || s.id === currentUserId ? null : (
              <button
                type="button"
                className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
                onClick={() => setDialog({ kind: "remove", staff: s })}
                aria-label={`Remove ${s.username}`}
              >
                <Trash2 className="h-4 w-4" aria-hidden />
                <span aria-hidden>Remove</span>
              </button>
            )}
          </div>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [currentUserId, rowBusy, dialog, when],
  );
  const table = useReactTable({
    data: staff ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (s) => String(s.id),
    enableSorting: false,
  });

  return (
    <AdminPanel
      title="Staff Accounts"
      description="Add staff, reset a password (their sessions end), change a role or remove an account."
      actions={
        <button type="button" className="btn-primary" onClick={() => setDialog({ kind: "add" })}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Staff
        </button>
      }
    >
      <FlashBanner flash={flash} onDismiss={clear} />
      <TableState
        state={staff === null ? (failed ? "error" : "loading") : staff.length === 0 ? "empty" : "ready"}
        loadingText="Loading staff accounts..."
        errorText="The staff list could not be loaded."
        emptyText="No staff accounts."
        onRetry={() => void load()}
      >
        <DataTable table={table} caption="Staff accounts" testId="staff" />
      </TableState>

      <AddStaffDialog
        open={dialog?.kind === "add"}
        onClose={() => setDialog(null)}
        onCreated={async (row) => {
          setDialog(null);
          show("success", `Staff account ${row.username} was added.`);
          await load();
        }}
      />
      <StaffSettingsDialog
        staff={dialog?.kind === "settings" ? dialog.staff : null}
        onClose={() => setDialog(null)}
        onDone={async (row) => {
          setDialog(null);
          show("success", `Settings saved for ${row.username}.`);
          await load();
        }}
      />
      <ResetPasswordDialog
        staff={dialog?.kind === "password" ? dialog.staff : null}
        self={dialog?.kind === "password" && dialog.staff.id === currentUserId}
        onClose={() => setDialog(null)}
        onDone={(row) => {
          setDialog(null);
          show("success", `Password reset for ${row.username}. Their sessions have ended.`);
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === "promote"}
        title="Make Super Admin"
        confirmLabel="Make super admin"
        busyLabel="Saving..."
        busy={dialog?.kind === "promote" && rowBusy === dialog.staff.id}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind !== "promote") return;
          void changeRole(dialog.staff, "super_admin").finally(() => setDialog(null));
        }}
      >
        {dialog?.kind === "promote" ? (
          <p>
            Make <span className="font-semibold text-brand-900">{dialog.staff.username}</span> a super admin? They will be able to manage
            RSS feeds, videos and staff accounts (including yours) and read the audit log.
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog?.kind === "remove"}
        title="Remove Staff Account"
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={busy}
        onCancel={() => setDialog(null)}
        onConfirm={() => dialog?.kind === "remove" && void remove(dialog.staff)}
      >
        {dialog?.kind === "remove" ? (
          <p>
            Remove <span className="font-semibold text-brand-900">{dialog.staff.username}</span>? They will be signed out and can no longer
            sign in.
          </p>
        ) : null}
      </ConfirmDialog>
    </AdminPanel>
  );
}

function AddStaffDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (row: StaffRow) => void | Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  async function create(input: CreateStaffInput) {
    setBusy(true);
    setError(null);
    try {
      await onCreated(await staffApi.create(input));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={open}
      title="Add Staff"
      description="The new account signs in on the staff login with this username and password."
      schema={createStaffSchema}
      defaultValue={{ role: "limited_admin" }}
      busy={busy}
      error={error}
      submitLabel="Add Staff"
      busyLabel="Adding..."
      submitIcon={<Plus className="h-4 w-4" aria-hidden />}
      onClose={onClose}
      onSubmit={(input) => void create(input)}
    >
      {(fields) => (
        <>
          <Field meta={fields.username} label="Username" required>
            <input {...inputProps(fields.username, { type: "text" })} className="field-input" autoComplete="off" />
          </Field>
          <Field meta={fields.role} label="Role" required>
            <select {...selectProps(fields.role)} className="field-input">
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </Field>
          <Field meta={fields.password} label="Password" required hint={PASSWORD_HINT}>
            {({ ariaDescribedBy }) => (
              <input
                {...inputProps(fields.password, { type: "password", ariaDescribedBy })}
                className="field-input"
                autoComplete="new-password"
              />
            )}
          </Field>
        </>
      )}
    </FormDialog>
  );
}

function ResetPasswordDialog({
  staff,
  self,
  onClose,
  onDone,
}: {
  staff: StaffRow | null;
  self: boolean;
  onClose: () => void;
  onDone: (row: StaffRow) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setError(null), [staff]);

  async function reset(password: string) {
    if (!staff) return;
    setBusy(true);
    setError(null);
    try {
      await staffApi.resetPassword(staff.id, password);
      onDone(staff);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={staff !== null}
      title="Reset Password"
      description={
        staff
          ? self
            ? "Your other sessions will end; this one stays signed in."
            : `${staff.username} will be signed out everywhere.`
          : undefined
      }
      schema={resetPasswordSchema}
      busy={busy}
      error={error}
      submitLabel="Reset Password"
      busyLabel="Saving..."
      submitIcon={<KeyRound className="h-4 w-4" aria-hidden />}
      onClose={onClose}
      onSubmit={(input) => void reset(input.password)}
    >
      {(fields) => (
        <Field meta={fields.password} label="New password" required hint={PASSWORD_HINT}>
          {({ ariaDescribedBy }) => (
            <input
              {...inputProps(fields.password, { type: "password", ariaDescribedBy })}
              className="field-input"
              autoComplete="new-password"
            />
          )}
        </Field>
      )}
    </FormDialog>
  );
}

/** A staff member's own e-mail address (where Send test goes) and, for a limited admin, the announcements permission. */
function StaffSettingsDialog({
  staff,
  onClose,
  onDone,
}: {
  staff: StaffRow | null;
  onClose: () => void;
  onDone: (row: StaffRow) => void | Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setError(null), [staff]);

  async function save(input: { email: string | null; announcements: boolean }) {
    if (!staff) return;
    setBusy(true);
    setError(null);
    try {
      await onDone(await staffApi.settings(staff.id, input));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const limited = staff?.role === "limited_admin";
  return (
    <FormDialog
      open={staff !== null}
      title="Staff Settings"
      description={staff ? `Settings of ${staff.username}.` : undefined}
      schema={staffSettingsFormSchema}
      defaultValue={
        staff ? { email: staff.email ?? "", announcements: staff.permissions.includes("announcements") ? "on" : undefined } : {}
      }
      busy={busy}
      error={error}
      submitLabel="Save"
      busyLabel="Saving..."
      onClose={onClose}
      onSubmit={(data) => void save({ email: data.email, announcements: limited && data.announcements })}
    >
      {(fields) => (
        <>
          <Field meta={fields.email} label="E-mail" hint="Where a test of an announcement is sent. Leave blank for none.">
            {({ ariaDescribedBy }) => (
              <input {...inputProps(fields.email, { type: "email", ariaDescribedBy })} className="field-input" autoComplete="off" />
            )}
          </Field>
          {limited ? (
            <div className="flex items-start gap-3">
              <input
                {...inputProps(fields.announcements, { type: "checkbox", ariaDescribedBy: fields.announcements.descriptionId })}
                className="mt-1 h-4 w-4 rounded border-slate-400 text-brand-700 focus:ring-brand-500"
              />
              <div className="text-sm">
                <label htmlFor={fields.announcements.id} className="font-medium text-slate-800">
                  {STAFF_PERMISSION_LABELS.announcements}
                </label>
                <p id={fields.announcements.descriptionId} className="text-slate-600">
                  The Announcements tab of the dashboard: write, test, schedule and send to members.
                </p>
              </div>
            </div>
          ) : (
            <p className="text-sm text-slate-600">A super admin may always write and send announcements.</p>
          )}
        </>
      )}
    </FormDialog>
  );
}
