import { ArrowLeft, CreditCard, FileSpreadsheet, History, ShieldCheck, Users } from "lucide-react";
import { Tabs } from "radix-ui";
import { Link } from "react-router";
import { useAddressQuery } from "~/components/admin/useAddressQuery";
import type { PublicUser } from "~/features/auth/user";
import { isSuperAdmin } from "~/features/auth/user";
import { PaymentsImportPanel } from "~/features/membership/admin/PaymentsImportPanel";
import { UnmatchedPayments } from "~/features/membership/admin/UnmatchedPayments";
import { AuditPanel } from "./AuditPanel";
import { MembersPanel } from "./MembersPanel";
import { StaffPanel } from "./StaffPanel";
import { MembersWithoutEmail } from "~/features/membership/admin/ReminderMails";

export type MembersTab = "members" | "payments" | "unmatched" | "staff" | "audit";

/** Importing payments and unmatched online payments are for any admin; staff accounts and the audit log for super_admin; anything else is members. */
export function resolveMembersTab(user: PublicUser, requested: string | null): MembersTab {
  if (requested === "payments" || requested === "unmatched") return requested;
  if ((requested === "staff" || requested === "audit") && isSuperAdmin(user)) return requested;
  return "members";
}

/** /admin/members: members and the payments import for any admin; staff accounts and the audit log for super_admin. */
export function MemberAdministration({ user }: { user: PublicUser }) {
  // The tab shown is the address's, written through the page's one writer (a tab's list owns the rest of the query).
  const [params, update] = useAddressQuery();
  const superAdmin = isSuperAdmin(user);
  const tab = resolveMembersTab(user, params.get("tab"));
  const tabClass =
    "inline-flex flex-1 items-center justify-center gap-2 border-b-2 [&>svg]:hidden sm:[&>svg]:block border-transparent px-1 py-3 text-[0.8125rem] sm:text-sm font-semibold text-slate-600 hover:text-brand-800 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800 sm:flex-none sm:px-5";
  return (
    <section className="container-page py-10">
      <Link to="/admin/dashboard" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:text-brand-900">
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Admin Dashboard
      </Link>
      <p className="mt-4 text-sm font-semibold uppercase tracking-wider text-brand-600">Member Administration</p>
      <h1 className="mt-1 font-serif text-3xl font-bold text-brand-900">Members{superAdmin ? " and staff" : ""}</h1>

      <Tabs.Root
        value={tab}
        onValueChange={(value) => update({ tab: value === "members" ? null : value }, { alone: true })}
        className="mt-8"
      >
        <Tabs.List aria-label="Member administration sections" className="flex border-b border-slate-200">
          <Tabs.Trigger value="members" className={tabClass}>
            <Users className="h-4 w-4" aria-hidden />
            Members
          </Tabs.Trigger>
          <Tabs.Trigger value="payments" className={tabClass}>
            <FileSpreadsheet className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">Import payments (CSV)</span>
            <span className="sm:hidden">Payments</span>
          </Tabs.Trigger>
          <Tabs.Trigger value="unmatched" className={tabClass}>
            <CreditCard className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">Unmatched payments</span>
            <span className="sm:hidden">Unmatched</span>
          </Tabs.Trigger>
          {superAdmin ? (
            <>
              <Tabs.Trigger value="staff" className={tabClass}>
                <ShieldCheck className="h-4 w-4" aria-hidden />
                <span className="hidden sm:inline">Staff Accounts</span>
                <span className="sm:hidden">Staff</span>
              </Tabs.Trigger>
              <Tabs.Trigger value="audit" className={tabClass}>
                <History className="h-4 w-4" aria-hidden />
                <span className="hidden sm:inline">Audit Log</span>
                <span className="sm:hidden">Audit</span>
              </Tabs.Trigger>
            </>
          ) : null}
        </Tabs.List>
        <Tabs.Content value="members" className="pt-6 focus:outline-none">
          <MembersPanel superAdmin={superAdmin} />
          <MembersWithoutEmail />
        </Tabs.Content>
        <Tabs.Content value="payments" className="pt-6 focus:outline-none">
          <PaymentsImportPanel />
        </Tabs.Content>
        <Tabs.Content value="unmatched" className="pt-6 focus:outline-none">
          <UnmatchedPayments superAdmin={superAdmin} />
        </Tabs.Content>
        {superAdmin ? (
          <>
            <Tabs.Content value="staff" className="pt-6 focus:outline-none">
              <StaffPanel currentUserId={user.id} />
            </Tabs.Content>
            <Tabs.Content value="audit" className="pt-6 focus:outline-none">
              <AuditPanel />
            </Tabs.Content>
          </>
        ) : null}
      </Tabs.Root>
    </section>
  );
}
