import { useEffect, useId, useState } from "react";
import { ArrowDown, ArrowUp, Film, Pencil, Plus, RefreshCw, Trash2 } from "lucide-react";
import { AdminPanel } from "~/components/AdminPanel";
import { TableState } from "~/components/admin/DataTable";
import { ConfirmDialog, EmptyList, FlashBanner } from "~/components/admin/Feedback";
import { useRecordList, type RecordListApi } from "~/components/admin/useRecordList";
import { errorReason } from "~/platform/json-client";
import { ARTICLE_CATEGORIES, categoryLabel } from "~/domain/article-categories";
import { videosApi } from "../api-client";
import type { VideoInput, VideoJson } from "../contract";
import { VideoFormDialog } from "./VideoFormDialog";
import { VIDEO_ADMIN_MESSAGES as M } from "./messages";

export const VIDEOS_PANEL_TITLE = "Video Tutorials";
export const VIDEOS_PANEL_DESCRIPTION = "Add, edit, order and remove the how-to videos members see in the knowledge center.";

const videoRecords: RecordListApi<VideoJson, VideoInput> = {
  list: () => videosApi.list(),
  add: videosApi.add,
  update: (video, input) => videosApi.update(video.id, input),
  remove: (video) => videosApi.remove(video.id),
};

/** The super_admin's video catalogue (GET/POST/PUT/DELETE /api/videos, PUT /api/videos/order). */
export function VideoManagement() {
  const list = useRecordList(videoRecords, M);
  const { records: videos, setRecords: setVideos, editor, deletion, load } = list;
  const { flash, show, clear } = list.flash;
  const [filter, setFilter] = useState<string>("");
  const [moving, setMoving] = useState<number | null>(null);
  // The button a keyboard user pressed, focused again once the moved row is in its new place.
  const [refocus, setRefocus] = useState<{ id: number; delta: -1 | 1 } | null>(null);
  const filterId = useId();
  const moveButtonId = (id: number, delta: -1 | 1) => `${filterId}-move-${id}-${delta > 0 ? "down" : "up"}`;

  useEffect(() => {
    if (!refocus) return;
    // React moves the row's element, which takes the focus off the button: give it back,
    // or to the other arrow when the video reached the end of its category.
    const pressed = document.getElementById(moveButtonId(refocus.id, refocus.delta)) as HTMLButtonElement | null;
    const other = document.getElementById(moveButtonId(refocus.id, refocus.delta > 0 ? -1 : 1)) as HTMLButtonElement | null;
    (pressed && !pressed.disabled ? pressed : other)?.focus();
    setRefocus(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refocus]);

  async function move(video: VideoJson, delta: -1 | 1) {
    if (!videos || moving !== null) return;
    const hadFocus = document.activeElement?.id === moveButtonId(video.id, delta);
    const group = videos.filter((v) => v.category === video.category);
    const from = group.findIndex((v) => v.id === video.id);
    const to = from + delta;
    if (to < 0 || to >= group.length) return;
    const ids = group.map((v) => v.id);
    [ids[from], ids[to]] = [ids[to], ids[from]];
    setMoving(video.id);
    try {
      const ordered = await videosApi.reorder(video.category, ids);
      setVideos((all) => (all ? [...all.filter((v) => v.category !== video.category), ...ordered] : all));
      if (hadFocus) setRefocus({ id: video.id, delta });
      show("success", M.ordered);
    } catch (err) {
      show("error", M.orderFailed(errorReason(err)));
      await load();
    } finally {
      setMoving(null);
    }
  }

  const counts = new Map<string, number>();
  for (const v of videos ?? []) counts.set(v.category, (counts.get(v.category) ?? 0) + 1);
  const groups = ARTICLE_CATEGORIES.filter((c) => (filter ? c === filter : counts.has(c))).map((c) => ({
    category: c,
    videos: (videos ?? []).filter((v) => v.category === c),
  }));

  const actions = (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-outline" onClick={() => void load()} disabled={list.refreshing}>
        <RefreshCw className={`h-4 w-4 ${list.refreshing ? "animate-spin" : ""}`} aria-hidden />
        {list.refreshing ? "Refreshing..." : "Refresh"}
      </button>
      <button type="button" className="btn-primary" onClick={editor.openAdd}>
        <Plus className="h-4 w-4" aria-hidden />
        Add Video
      </button>
    </div>
  );

  return (
    <AdminPanel title={VIDEOS_PANEL_TITLE} description={VIDEOS_PANEL_DESCRIPTION} actions={actions}>
      <FlashBanner flash={flash} onDismiss={clear} testId="video-message" />
      <div className="mb-5 max-w-xs">
        <label htmlFor={filterId} className="field-label">
          Category
        </label>
        <select id={filterId} className="field-input" value={filter} onChange={(e) => setFilter(e.target.value)}>
          <option value="">All categories ({videos?.length ?? 0})</option>
          {ARTICLE_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c)} ({counts.get(c) ?? 0})
            </option>
          ))}
        </select>
      </div>
      <TableState
        state={list.state === "ready" && groups.every((g) => g.videos.length === 0) ? "empty" : list.state}
        loadingText="Loading videos..."
        errorText="The video list could not be loaded."
        emptyText={
          <EmptyList icon={Film} title={filter ? `No videos in ${categoryLabel(filter)} yet` : "No videos yet"}>
            <button type="button" className="btn-primary" onClick={editor.openAdd}>
              <Plus className="h-4 w-4" aria-hidden />
              Add Video
            </button>
          </EmptyList>
        }
        onRetry={() => void load()}
      >
        <div className="space-y-6">
          {groups.map((g) => (
            <section key={g.category} aria-labelledby={`videos-${g.category}`}>
              <h3 id={`videos-${g.category}`} className="text-sm font-semibold uppercase tracking-wide text-slate-600">
                {categoryLabel(g.category)} ({g.videos.length})
              </h3>
              <ol className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200">
                {g.videos.map((video, i) => (
                  <li key={video.id} data-testid="admin-video" className="flex flex-wrap items-center gap-3 px-3 py-2.5 sm:flex-nowrap">
                    <img
                      src={`https://i.ytimg.com/vi/${video.youtube_id}/mqdefault.jpg`}
                      alt=""
                      className="hidden h-12 w-20 shrink-0 rounded object-cover sm:block"
                      loading="lazy"
                    />
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-brand-900">{video.title}</p>
                      <p className="text-xs text-slate-600">
                        {video.youtube_id}
                        {video.duration ? ` · ${video.duration}` : ""}
                      </p>
                    </div>
                    <div className="flex shrink-0 gap-1">
                      <button
                        type="button"
                        className="btn-ghost px-2"
                        id={moveButtonId(video.id, -1)}
                        onClick={() => void move(video, -1)}
                        disabled={i === 0}
                        aria-disabled={moving !== null || undefined}
                        aria-label={`Move ${video.title} up`}
                      >
                        <ArrowUp className="h-4 w-4" aria-hidden />
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2"
                        id={moveButtonId(video.id, 1)}
                        onClick={() => void move(video, 1)}
                        disabled={i === g.videos.length - 1}
                        aria-disabled={moving !== null || undefined}
                        aria-label={`Move ${video.title} down`}
                      >
                        <ArrowDown className="h-4 w-4" aria-hidden />
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2.5"
                        onClick={() => editor.openEdit(video)}
                        aria-label={`Edit ${video.title}`}
                      >
                        <Pencil className="h-4 w-4" aria-hidden />
                        <span aria-hidden>Edit</span>
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
                        onClick={() => deletion.ask(video)}
                        aria-label={`Delete ${video.title}`}
                      >
                        <Trash2 className="h-4 w-4" aria-hidden />
                        <span aria-hidden>Delete</span>
                      </button>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      </TableState>

      <VideoFormDialog video={editor.record} defaultCategory={filter || null} {...editor.dialogProps} />
      <ConfirmDialog
        title="Delete Video"
        description={M.confirmDelete}
        confirmIcon={<Trash2 className="h-4 w-4" aria-hidden />}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        {...deletion.dialogProps}
      >
        {deletion.record ? (
          <p>
            <span className="font-semibold text-brand-900">{deletion.record.title}</span> will be removed from{" "}
            {categoryLabel(deletion.record.category)} for every member.
          </p>
        ) : null}
      </ConfirmDialog>
    </AdminPanel>
  );
}
