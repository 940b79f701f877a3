import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useAddressQuery } from "~/components/admin/useAddressQuery";
import { FlashBanner } from "~/components/admin/Feedback";
import { Tabs } from "radix-ui";
import { FileText, LoaderCircle, Megaphone, PlayCircle, Rss, Upload, Users } from "lucide-react";
import { RssFeedManagement } from "~/features/articles/admin/RssFeedManagement";
import { VideoManagement } from "~/features/videos/admin/VideoManagement";
import type { PublicUser } from "~/features/auth/user";
import { isSuperAdmin } from "~/features/auth/user";
import { SubmissionsPanel } from "~/features/submissions/admin/SubmissionsPanel";
import { MembershipSection } from "~/features/applications/admin/MembershipSection";
import { SignOutEverywhereButton } from "~/features/account/SignOutEverywhere";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import type { MembershipFigures } from "~/features/membership/trend";
import { MembershipOverview } from "./MembershipOverview";
import { UnmatchedPaymentsCount } from "~/features/membership/admin/UnmatchedPayments";
import { useOnDemand } from "~/components/useOnDemand";

/** The Announcements tab's screens are fetched when the tab is first opened. */
const loadAnnouncements = () => import("~/features/announcements/admin/AnnouncementsPanel");

export type AdminTab = "rss" | "submissions" | "videos" | "announcements";

/**
 * Default tab: RSS for super_admin, otherwise submissions (limited_admin never sees RSS).
 * Announcements for a super_admin and a limited_admin a super_admin allowed (`announcements`).
 */
export function resolveTab(user: PublicUser, requested: string | null, announcements = false): AdminTab {
  const superAdmin = isSuperAdmin(user);
  if (requested === "submissions") return "submissions";
  if (requested === "announcements" && (superAdmin || announcements)) return "announcements";
  if (requested === "rss" && superAdmin) return "rss";
  if (requested === "videos" && superAdmin) return "videos";
  return superAdmin ? "rss" : "submissions";
}

/** Why a staff member landed on the dashboard instead of the page they asked for. */
export const DASHBOARD_NOTICES = {
  "super-admin-only": "RSS Feed Management (/admin/rss) is for super admins only, so you were brought to the dashboard instead.",
} as const;
export type DashboardNotice = keyof typeof DASHBOARD_NOTICES;

/** The notice named in the address (?notice=...), for a staff member it applies to. */
export function resolveNotice(user: PublicUser, requested: string | null): DashboardNotice | null {
  return requested === "super-admin-only" && !isSuperAdmin(user) ? requested : null;
}

export function AdminDashboard({
  user,
  initialTab,
  notice = null,
  membership,
  announcements = false,
}: {
  user: PublicUser;
  initialTab: AdminTab;
  /** Whether this staff member may write announcements (a super admin always may). */
  announcements?: boolean;
  notice?: DashboardNotice | null;
  /** Counts by coverage status and the last twelve months; null when they could not be read. */
  membership: MembershipFigures | null;
}) {
  // The tab shown is the address's (the Back button, a change still on its way), written through the page's one writer.
  const [params, update] = useAddressQuery();
  const [noticeShown, setNoticeShown] = useState(notice !== null);
  const superAdmin = isSuperAdmin(user);
  const mayAnnounce = useAnnouncementsAllowed(user, announcements);
  const tab = params.has("tab") ? resolveTab(user, params.get("tab"), mayAnnounce) : initialTab;
  // 'Sign out everywhere' for the staff member's own account; its outcome clears after 5 seconds like every admin message.
  const { flash, show, clear } = useFlashMessage();
  const tabClass =
    "group inline-flex flex-1 items-center justify-center gap-2 border-b-2 border-transparent px-3 py-3 text-sm font-semibold text-slate-600 hover:text-brand-800 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800 sm:flex-none sm:px-5";
  return (
    <section className="container-page py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Admin Dashboard</p>
          <h1 className="mt-1 font-serif text-3xl font-bold text-brand-900">Manage AHA content and submissions</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <SignOutEverywhereButton onDone={(text) => show("success", text)} onError={(text) => show("error", text)} />
          <Link to="/admin/members" className="btn-outline">
            <Users className="h-4 w-4" aria-hidden />
            Members
          </Link>
          <Link to="/admin/upload" className="btn-primary">
            <Upload className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">User Upload</span>
            <span className="sm:hidden">Upload</span>
          </Link>
        </div>
      </div>

      <div className="mt-6">
        <FlashBanner flash={flash} onDismiss={clear} testId="sign-out-everywhere-message" />
      </div>

      {notice && noticeShown ? (
        <div className="mt-6">
          <FlashBanner
            flash={{ kind: "warning", text: DASHBOARD_NOTICES[notice], id: 0 }}
            onDismiss={() => {
              setNoticeShown(false);
              update({ notice: null });
            }}
            testId="dashboard-notice"
          />
        </div>
      ) : null}
      <MembershipOverview figures={membership} />
      <UnmatchedPaymentsCount superAdmin={superAdmin} />
      <Tabs.Root value={tab} onValueChange={(value) => update({ tab: value }, { alone: true })} className="mt-2">
        <Tabs.List aria-label="Admin sections" className="flex border-b border-slate-200">
          {superAdmin ? (
            <Tabs.Trigger value="rss" className={tabClass}>
              <Rss className="h-4 w-4" aria-hidden />
              <span className="hidden sm:inline">RSS Management</span>
              <span className="sm:hidden">RSS</span>
            </Tabs.Trigger>
          ) : null}
          <Tabs.Trigger value="submissions" className={tabClass}>
            <FileText className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">Form &amp; Application Submissions</span>
            <span className="sm:hidden">Forms</span>
          </Tabs.Trigger>
          {superAdmin ? (
            <Tabs.Trigger value="videos" className={tabClass}>
              <PlayCircle className="h-4 w-4" aria-hidden />
              Videos
            </Tabs.Trigger>
          ) : null}
          {mayAnnounce ? (
            <Tabs.Trigger value="announcements" className={tabClass}>
              <Megaphone className="h-4 w-4" aria-hidden />
              <span className="hidden sm:inline">Announcements</span>
              <span className="sm:hidden">News</span>
            </Tabs.Trigger>
          ) : null}
        </Tabs.List>
        {superAdmin ? (
          <Tabs.Content value="rss" className="pt-6 focus:outline-none">
            <p className="mb-6 text-sm text-slate-600">Manage RSS feeds and content ingestion</p>
            <RssFeedManagement />
          </Tabs.Content>
        ) : null}
        <Tabs.Content value="submissions" className="pt-6 focus:outline-none">
          <p className="mb-6 text-sm text-slate-600">View and manage form requests and membership applications</p>
          <SubmissionsPanel membershipSection={MembershipSection} />
        </Tabs.Content>
        {superAdmin ? (
          <Tabs.Content value="videos" className="pt-6 focus:outline-none">
            <p className="mb-6 text-sm text-slate-600">Manage the video tutorials of the knowledge center</p>
            <VideoManagement />
          </Tabs.Content>
        ) : null}
        {mayAnnounce ? (
          <Tabs.Content value="announcements" className="pt-6 focus:outline-none">
            <AnnouncementsTab wanted={tab === "announcements"} />
          </Tabs.Content>
        ) : null}
      </Tabs.Root>
    </section>
  );
}

/**
 * Whether the Announcements tab is shown. A super admin always may; a limited admin may when a
 * super admin allowed it. The dashboard is kept rendered per role (decision 011), so a limited
 * admin's kept page cannot carry their own permission: when the loader's answer is no, the
 * page asks the API once after it has loaded (the API checks the permission itself anyway).
 */
function useAnnouncementsAllowed(user: PublicUser, fromLoader: boolean): boolean {
  const [allowed, setAllowed] = useState(fromLoader || isSuperAdmin(user));
  const limited = user.role === "limited_admin";
  useEffect(() => {
    if (allowed || !limited) return;
    let live = true;
    // The body is read to its end even when only the status matters: a fetch whose body is
    // left unread stays open in the browser's network layer (a page that waits for the network
    // to go quiet, as a test does before axe, would wait for ever).
    fetch("/api/admin/announcements/options", { headers: { Accept: "application/json" } })
      .then(async (res) => {
        await res.arrayBuffer();
        if (live && res.ok) setAllowed(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [allowed, limited]);
  return allowed;
}

function AnnouncementsTab({ wanted }: { wanted: boolean }) {
  const [failed, setFailed] = useState(false);
  const panel = useOnDemand(loadAnnouncements, wanted && !failed, () => setFailed(true));
  if (panel) return <panel.default />;
  if (failed)
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center text-red-900">
        <p className="font-semibold">The announcements could not be loaded.</p>
        <button type="button" className="btn-primary mt-4" onClick={() => setFailed(false)}>
          Try Again
        </button>
      </div>
    );
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
      <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
      Loading announcements...
    </p>
  );
}
