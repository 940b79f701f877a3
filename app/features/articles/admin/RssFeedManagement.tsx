import { useCallback, useEffect, useRef, useState } from "react";
import { CircleAlert, CircleCheck, LoaderCircle, Pencil, Plus, RefreshCw, Rss, Trash2, TriangleAlert, Download } from "lucide-react";
import { Modal } from "~/components/Modal";
import { AdminPanel } from "~/components/AdminPanel";
import { errorReason, rssApi } from "../api-client";
import { categoryLabel } from "../categories";
import type { FeedInput, RssFeed } from "../contract";
import { FeedFormDialog } from "./FeedFormDialog";
import { FEED_ADMIN_MESSAGES as M } from "./messages";
import { FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";

export const RSS_PANEL_TITLE = "RSS Feed Management";
export const RSS_PANEL_DESCRIPTION = "Manage RSS feeds, sync content, and monitor ingestion status.";

type Editing = { mode: "add" } | { mode: "edit"; feed: RssFeed } | null;

function formatWhen(iso: string | null | undefined): string {
  if (!iso) return "Never";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "Never" : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The super_admin's feed list with add, edit, delete, ingest and refresh (spec: admin-side
 * sections 2, 4, 5, 7, 8). Reads and writes through /api/rss/feeds and /api/rss/ingest.
 */
export function RssFeedManagement() {
  const [feeds, setFeeds] = useState<RssFeed[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [ingesting, setIngesting] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RssFeed | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const { flash, show, clear } = useFlashMessage();

  const load = useCallback(async () => {
    setRefreshing(true);
    try {
      setFeeds(await rssApi.listFeeds());
      setLoadFailed(false);
    } catch (err) {
      setLoadFailed(true);
      show("error", M.loadFailed(errorReason(err)));
    } finally {
      setRefreshing(false);
    }
  }, [show]);

  useEffect(() => {
    void load();
  }, [load]);

  async function ingest() {
    setIngesting(true);
    try {
      const counts = await rssApi.ingest();
      if (counts.failed > 0) show("warning", M.ingestedWithFailures(counts.failed, Math.max(counts.feeds, counts.failed)));
      else show("success", M.ingested);
    } catch (err) {
      show("error", M.ingestFailed(errorReason(err)));
    } finally {
      setIngesting(false);
    }
    await load();
  }

  async function save(input: FeedInput) {
    if (!editing) return;
    setSaving(true);
    setFormError(null);
    try {
      if (editing.mode === "add") await rssApi.addFeed(input);
      else await rssApi.updateFeed(editing.feed.id, input);
      show("success", editing.mode === "add" ? M.added : M.updated);
      setEditing(null);
      await load();
    } catch (err) {
      // Shown once, in the dialog, where the feed can be corrected; the page behind says nothing.
      setFormError(editing.mode === "add" ? M.addFailed(errorReason(err)) : M.updateFailed(errorReason(err)));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await rssApi.deleteFeed(deleting.id);
      show("success", M.deleted);
    } catch (err) {
      show("error", M.deleteFailed(errorReason(err)));
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
    await load();
  }

  const openAdd = () => {
    setFormError(null);
    setEditing({ mode: "add" });
  };
  const openEdit = (feed: RssFeed) => {
    setFormError(null);
    setEditing({ mode: "edit", feed });
  };

  const actions = (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-outline" onClick={() => void load()} disabled={refreshing}>
        <RefreshCw className={`h-4 w-4 ${refreshing ? "animate-spin" : ""}`} aria-hidden />
        {refreshing ? "Refreshing..." : "Refresh"}
      </button>
      <button type="button" className="btn-outline" onClick={() => void ingest()} disabled={ingesting}>
        <Download className={`h-4 w-4 ${ingesting ? "animate-pulse" : ""}`} aria-hidden />
        {ingesting ? "Ingesting..." : "Ingest all"}
      </button>
      <button type="button" className="btn-primary" onClick={openAdd}>
        <Plus className="h-4 w-4" aria-hidden />
        Add Feed
      </button>
    </div>
  );

  return (
    <AdminPanel title={RSS_PANEL_TITLE} description={RSS_PANEL_DESCRIPTION} actions={actions}>
      <FlashBanner flash={flash} onDismiss={clear} testId="rss-message" />
      {feeds === null ? (
        loadFailed ? (
          <div className="flex flex-col items-center rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center">
            <CircleAlert className="h-8 w-8 text-red-600" aria-hidden />
            <p className="mt-3 font-semibold text-red-900">The feed list could not be loaded.</p>
            <button type="button" className="btn-primary mt-5" onClick={() => void load()} disabled={refreshing}>
              Try Again
            </button>
          </div>
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
            Loading feeds...
          </p>
        )
      ) : feeds.length === 0 ? (
        <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center">
          <Rss className="h-8 w-8 text-slate-400" aria-hidden />
          <p className="mt-3 text-lg font-semibold text-brand-900">No RSS feeds yet</p>
          <p className="mt-1 max-w-md text-sm text-slate-600">Add a feed to start filling the knowledge center with articles.</p>
          <button type="button" className="btn-primary mt-5" onClick={openAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Feed
          </button>
        </div>
      ) : (
        <FeedList feeds={feeds} onEdit={openEdit} onDelete={setDeleting} />
      )}

      <FeedFormDialog
        open={editing !== null}
        feed={editing?.mode === "edit" ? editing.feed : null}
        busy={saving}
        error={formError}
        onClose={() => setEditing(null)}
        onSubmit={(input) => void save(input)}
      />
      <DeleteFeedDialog feed={deleting} busy={deleteBusy} onCancel={() => setDeleting(null)} onConfirm={() => void confirmDelete()} />
    </AdminPanel>
  );
}

function ActiveMark({ active }: { active: boolean }) {
  return active ? (
    <span className="inline-flex items-center gap-1.5 text-sm font-medium text-green-800">
      <CircleCheck className="h-5 w-5 text-green-600" aria-hidden />
      Active
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 text-sm font-medium text-amber-800">
      <TriangleAlert className="h-5 w-5 text-amber-500" aria-hidden />
      Inactive
    </span>
  );
}

function LastError({ feed }: { feed: RssFeed }) {
  if (!feed.last_error) return <span className="text-slate-500">None</span>;
  return (
    <span className="block break-words text-red-800">
      {feed.last_error}
      {feed.consecutive_failures > 1 ? (
        <span className="block text-xs text-red-700">{feed.consecutive_failures} failures in a row</span>
      ) : null}
    </span>
  );
}

function RowActions({ feed, onEdit, onDelete }: { feed: RssFeed; onEdit: (f: RssFeed) => void; onDelete: (f: RssFeed) => void }) {
  return (
    <div className="flex gap-1">
      <button type="button" className="btn-ghost px-2.5" onClick={() => onEdit(feed)} aria-label={`Edit ${feed.name}`}>
        <Pencil className="h-4 w-4" aria-hidden />
        <span aria-hidden>Edit</span>
      </button>
      <button
        type="button"
        className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
        onClick={() => onDelete(feed)}
        aria-label={`Delete ${feed.name}`}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
        <span aria-hidden>Delete</span>
      </button>
    </div>
  );
}

/** A table on wide screens, stacked cards on phones. */
function FeedList({ feeds, onEdit, onDelete }: { feeds: RssFeed[]; onEdit: (f: RssFeed) => void; onDelete: (f: RssFeed) => void }) {
  return (
    <>
      <div className="hidden overflow-x-auto lg:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">RSS feeds</caption>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Feed
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Category
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Status
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Last ingested
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Last error
              </th>
              <th scope="col" className="py-2 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {feeds.map((feed) => (
              <tr key={feed.id} data-testid="feed-row" className="align-top">
                <th scope="row" className="max-w-xs py-3 pr-4 font-normal">
                  <span className="block font-semibold text-brand-900">{feed.name}</span>
                  <span className="block break-all text-xs text-slate-600">{feed.url}</span>
                </th>
                <td className="py-3 pr-4 text-slate-700">{categoryLabel(feed.category)}</td>
                <td className="py-3 pr-4">
                  <ActiveMark active={feed.is_active} />
                </td>
                <td className="whitespace-nowrap py-3 pr-4 text-slate-700">{formatWhen(feed.last_ingested_at)}</td>
                <td className="max-w-xs py-3 pr-4 text-xs">
                  <LastError feed={feed} />
                </td>
                <td className="py-2">
                  <RowActions feed={feed} onEdit={onEdit} onDelete={onDelete} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 lg:hidden" aria-label="RSS feeds">
        {feeds.map((feed) => (
          <li key={feed.id} data-testid="feed-card" className="rounded-lg border border-slate-200 p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-brand-900">{feed.name}</p>
                <p className="break-all text-xs text-slate-600">{feed.url}</p>
              </div>
              <ActiveMark active={feed.is_active} />
            </div>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Category</dt>
              <dd className="text-slate-800">{categoryLabel(feed.category)}</dd>
              <dt className="text-slate-600">Last ingested</dt>
              <dd className="text-slate-800">{formatWhen(feed.last_ingested_at)}</dd>
              <dt className="text-slate-600">Last error</dt>
              <dd className="min-w-0 text-xs">
                <LastError feed={feed} />
              </dd>
            </dl>
            <div className="mt-3 border-t border-slate-100 pt-2">
              <RowActions feed={feed} onEdit={onEdit} onDelete={onDelete} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

function DeleteFeedDialog({
  feed,
  busy,
  onCancel,
  onConfirm,
}: {
  feed: RssFeed | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={feed !== null}
      onOpenChange={(o) => !o && !busy && onCancel()}
      title="Delete Feed"
      description={M.confirmDelete}
      size="sm"
      initialFocus={cancelRef}
      footer={
        <>
          <button ref={cancelRef} type="button" className="btn-ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn-danger" onClick={onConfirm} disabled={busy}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Trash2 className="h-4 w-4" aria-hidden />}
            {busy ? "Deleting..." : "Delete"}
          </button>
        </>
      }
    >
      {feed ? (
        <p>
          <span className="font-semibold text-brand-900">{feed.name}</span> will no longer be ingested, and the articles gathered from it
          will be removed from the knowledge center.
        </p>
      ) : null}
    </Modal>
  );
}
