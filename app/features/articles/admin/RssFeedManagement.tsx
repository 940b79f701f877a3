import { useState } from "react";
import { CircleAlert, CircleCheck, Pencil, Plus, RefreshCw, RotateCw, Rss, Trash2, TriangleAlert, Download } from "lucide-react";
import { AdminPanel } from "~/components/AdminPanel";
import { useAssociationTime } from "~/components/useAssociationTime";
import { usePublicConfig } from "~/components/usePublicConfig";
import { TableState } from "~/components/admin/DataTable";
import { ConfirmDialog, EmptyList, FlashBanner } from "~/components/admin/Feedback";
import { useRecordList, type RecordListApi } from "~/components/admin/useRecordList";
import { errorReason, rssApi } from "../api-client";
import { categoryLabel } from "~/domain/article-categories";
import type { FeedInput, RssFeed } from "../contract";
import { FeedFormDialog } from "./FeedFormDialog";
import { FEED_ADMIN_MESSAGES as M } from "./messages";

export const RSS_PANEL_TITLE = "RSS Feed Management";
export const RSS_PANEL_DESCRIPTION = "Manage RSS feeds, sync content, and monitor ingestion status.";

/** "Never" or the instant in the association's zone, named. */
function useFormatWhen(): (iso: string | null | undefined) => string {
  const when = useAssociationTime();
  return (iso) => when(iso) ?? "Never";
}

const feedRecords: RecordListApi<RssFeed, FeedInput> = {
  list: rssApi.listFeeds,
  add: rssApi.addFeed,
  update: (feed, input) => rssApi.updateFeed(feed.id, input),
  remove: (feed) => rssApi.deleteFeed(feed.id),
};

/**
 * The super_admin's feed list with add, edit, delete, ingest and refresh (spec: admin-side
 * sections 2, 4, 5, 7, 8). Reads and writes through /api/rss/feeds and /api/rss/ingest.
 */
export function RssFeedManagement() {
  const list = useRecordList(feedRecords, M);
  const { records: feeds, editor, deletion, load } = list;
  const { flash, show, clear } = list.flash;
  const [ingesting, setIngesting] = useState(false);
  const [retrying, setRetrying] = useState<number | null>(null);
  const { timeZone } = usePublicConfig();

  async function retry(feed: RssFeed) {
    setRetrying(feed.id);
    try {
      const { outcome } = await rssApi.retryFeed(feed.id);
      if (outcome.status === "ok") show("success", M.retried(feed.name, outcome.added));
      else if (outcome.status === "not-modified") show("success", M.retriedUnchanged(feed.name));
      else show("warning", M.retriedStillFailing(feed.name, outcome.error));
    } catch (err) {
      show("error", M.retryFailed(errorReason(err)));
    } finally {
      setRetrying(null);
    }
    await load();
  }

  async function ingest() {
    setIngesting(true);
    try {
      const outcome = await rssApi.ingest();
      if (outcome.failed > 0) show("warning", M.ingestedWithFailures(outcome.failed, Math.max(outcome.feeds, outcome.failed)));
      else if (outcome.feeds === 0 && outcome.skipped > 0) show("warning", M.noFeedsDue(outcome.nextAttemptAt, timeZone));
      else if (outcome.feeds === 0) show("warning", M.noActiveFeeds);
      else show("success", M.ingested);
    } catch (err) {
      show("error", M.ingestFailed(errorReason(err)));
    } finally {
      setIngesting(false);
    }
    await load();
  }

  const actions = (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-outline" onClick={() => void load()} disabled={list.refreshing}>
        <RefreshCw className={`h-4 w-4 ${list.refreshing ? "animate-spin" : ""}`} aria-hidden />
        {list.refreshing ? "Refreshing..." : "Refresh"}
      </button>
      <button type="button" className="btn-outline" onClick={() => void ingest()} disabled={ingesting}>
        <Download className={`h-4 w-4 ${ingesting ? "animate-pulse" : ""}`} aria-hidden />
        {ingesting ? "Ingesting..." : "Ingest all"}
      </button>
      <button type="button" className="btn-primary" onClick={editor.openAdd}>
        <Plus className="h-4 w-4" aria-hidden />
        Add Feed
      </button>
    </div>
  );

  return (
    <AdminPanel title={RSS_PANEL_TITLE} description={RSS_PANEL_DESCRIPTION} actions={actions}>
      <FlashBanner flash={flash} onDismiss={clear} testId="rss-message" />
      <TableState
        state={list.state}
        loadingText="Loading feeds..."
        errorText="The feed list could not be loaded."
        emptyText={
          <EmptyList icon={Rss} title="No RSS feeds yet" hint="Add a feed to start filling the knowledge center with articles.">
            <button type="button" className="btn-primary" onClick={editor.openAdd}>
              <Plus className="h-4 w-4" aria-hidden />
              Add Feed
            </button>
          </EmptyList>
        }
        onRetry={() => void load()}
      >
        <FeedList feeds={feeds ?? []} onEdit={editor.openEdit} onDelete={deletion.ask} onRetry={(f) => void retry(f)} retrying={retrying} />
      </TableState>

      <FeedFormDialog feed={editor.record} {...editor.dialogProps} />
      <ConfirmDialog
        title="Delete Feed"
        description={M.confirmDelete}
        confirmIcon={<Trash2 className="h-4 w-4" aria-hidden />}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        {...deletion.dialogProps}
      >
        {deletion.record ? (
          <p>
            <span className="font-semibold text-brand-900">{deletion.record.name}</span> will no longer be ingested, and the articles
            gathered from it will be removed from the knowledge center.
          </p>
        ) : null}
      </ConfirmDialog>
    </AdminPanel>
  );
}

function FailingMark() {
  return (
    <span className="mt-1 flex items-center gap-1.5 text-sm font-semibold text-red-800">
      <CircleAlert className="h-5 w-5 text-red-600" aria-hidden />
      Failing
    </span>
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

/** A feed that is fetched and whose last fetch failed: highlighted, with a "Retry now". */
const isFailing = (feed: RssFeed) => feed.is_active && feed.consecutive_failures > 0;

function LastError({ feed }: { feed: RssFeed }) {
  const formatWhen = useFormatWhen();
  if (!feed.last_error) return <span className="text-slate-500">None</span>;
  const failures = feed.consecutive_failures;
  return (
    <span className="block break-words text-red-800">
      {feed.last_error}
      {feed.last_error_at ? <span className="block text-xs text-red-700">{formatWhen(feed.last_error_at)}</span> : null}
      {failures > 0 ? (
        <span className="block text-xs text-red-700">
          {failures === 1 ? "1 failure" : `${failures} failures`} in a row
          {feed.is_active && feed.next_attempt_at ? `; next try ${formatWhen(feed.next_attempt_at)}` : ""}
        </span>
      ) : null}
    </span>
  );
}

interface RowHandlers {
  onEdit: (f: RssFeed) => void;
  onDelete: (f: RssFeed) => void;
  onRetry: (f: RssFeed) => void;
  /** The feed being retried, if any. */
  retrying: number | null;
}

function RowActions({ feed, onEdit, onDelete, onRetry, retrying }: RowHandlers & { feed: RssFeed }) {
  return (
    <div className="flex flex-wrap gap-1">
      {isFailing(feed) ? (
        <button
          type="button"
          className="btn-ghost px-2.5 text-brand-800"
          onClick={() => onRetry(feed)}
          disabled={retrying !== null}
          aria-label={retrying === feed.id ? `Retrying... ${feed.name}` : `Retry now: ${feed.name}`}
        >
          <RotateCw className={`h-4 w-4 ${retrying === feed.id ? "animate-spin" : ""}`} aria-hidden />
          <span aria-hidden>{retrying === feed.id ? "Retrying..." : "Retry now"}</span>
        </button>
      ) : null}
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
function FeedList({ feeds, ...handlers }: RowHandlers & { feeds: RssFeed[] }) {
  const formatWhen = useFormatWhen();
  return (
    <>
      <div className="hidden overflow-x-auto lg:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">RSS feeds</caption>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="py-2 pl-4 pr-4 font-semibold">
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
              <tr
                key={feed.id}
                data-testid="feed-row"
                data-failing={isFailing(feed) || undefined}
                className={`align-top ${isFailing(feed) ? "bg-red-50" : ""}`}
              >
                {/* The failing feed's red bar is this cell's own left border, with room before the name. */}
                <th
                  scope="row"
                  className={`max-w-xs border-l-4 py-3 pl-3 pr-4 font-normal ${isFailing(feed) ? "border-l-red-600" : "border-l-transparent"}`}
                >
                  <span className="block font-semibold text-brand-900">{feed.name}</span>
                  <span className="block break-all text-xs text-slate-600">{feed.url}</span>
                </th>
                <td className="py-3 pr-4 text-slate-700">{categoryLabel(feed.category)}</td>
                <td className="py-3 pr-4">
                  <ActiveMark active={feed.is_active} />
                  {isFailing(feed) ? <FailingMark /> : null}
                </td>
                <td className="whitespace-nowrap py-3 pr-4 text-slate-700">{formatWhen(feed.last_ingested_at)}</td>
                <td className="max-w-xs py-3 pr-4 text-xs">
                  <LastError feed={feed} />
                </td>
                <td className="py-2">
                  <RowActions feed={feed} {...handlers} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 lg:hidden" aria-label="RSS feeds">
        {feeds.map((feed) => (
          <li
            key={feed.id}
            data-testid="feed-card"
            data-failing={isFailing(feed) || undefined}
            className={`rounded-lg border p-4 ${isFailing(feed) ? "border-red-300 border-l-4 border-l-red-600 bg-red-50" : "border-slate-200"}`}
          >
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-brand-900">{feed.name}</p>
                <p className="break-all text-xs text-slate-600">{feed.url}</p>
              </div>
              <div className="shrink-0 text-right">
                <ActiveMark active={feed.is_active} />
                {isFailing(feed) ? <FailingMark /> : null}
              </div>
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
              <RowActions feed={feed} {...handlers} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
