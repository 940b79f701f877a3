import { useCallback, useEffect, useId, useRef, useState } from "react";
import { ArrowDown, ArrowUp, CircleAlert, Film, LoaderCircle, Pencil, Plus, RefreshCw, Trash2 } from "lucide-react";
import { Modal } from "~/components/Modal";
import { AdminPanel } from "~/components/AdminPanel";
import { errorReason } from "~/platform/json-client";
import { ARTICLE_CATEGORIES, categoryLabel } from "~/features/articles/categories";
import { FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { videosApi } from "../api-client";
import type { VideoInput, VideoJson } from "../contract";
import { VideoFormDialog } from "./VideoFormDialog";
import { VIDEO_ADMIN_MESSAGES as M } from "./messages";

export const VIDEOS_PANEL_TITLE = "Video Tutorials";
export const VIDEOS_PANEL_DESCRIPTION = "Add, edit, order and remove the how-to videos members see in the knowledge center.";

type Editing = { mode: "add" } | { mode: "edit"; video: VideoJson } | null;

/** The super_admin's video catalogue (GET/POST/PUT/DELETE /api/videos, PUT /api/videos/order). */
export function VideoManagement() {
  const [videos, setVideos] = useState<VideoJson[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [filter, setFilter] = useState<string>("");
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<VideoJson | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [moving, setMoving] = useState<number | null>(null);
  const { flash, show, clear } = useFlashMessage();
  const filterId = useId();

  const load = useCallback(async () => {
    setRefreshing(true);
    try {
      setVideos(await videosApi.list());
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

  async function save(input: VideoInput) {
    if (!editing) return;
    setSaving(true);
    setFormError(null);
    try {
      if (editing.mode === "add") await videosApi.add(input);
      else await videosApi.update(editing.video.id, input);
      show("success", editing.mode === "add" ? M.added : M.updated);
      setEditing(null);
      await load();
    } catch (err) {
      // Shown once, in the dialog, where the video can be corrected; the page behind says nothing.
      setFormError(editing.mode === "add" ? M.addFailed(errorReason(err)) : M.updateFailed(errorReason(err)));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await videosApi.remove(deleting.id);
      show("success", M.deleted);
    } catch (err) {
      show("error", M.deleteFailed(errorReason(err)));
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
    await load();
  }

  async function move(video: VideoJson, delta: -1 | 1) {
    if (!videos) return;
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

  const openAdd = () => {
    setFormError(null);
    setEditing({ mode: "add" });
  };
  const actions = (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-outline" onClick={() => void load()} disabled={refreshing}>
        <RefreshCw className={`h-4 w-4 ${refreshing ? "animate-spin" : ""}`} aria-hidden />
        {refreshing ? "Refreshing..." : "Refresh"}
      </button>
      <button type="button" className="btn-primary" onClick={openAdd}>
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
      {videos === null ? (
        loadFailed ? (
          <div className="flex flex-col items-center rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center">
            <CircleAlert className="h-8 w-8 text-red-600" aria-hidden />
            <p className="mt-3 font-semibold text-red-900">The video list could not be loaded.</p>
            <button type="button" className="btn-primary mt-5" onClick={() => void load()} disabled={refreshing}>
              Try Again
            </button>
          </div>
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
            Loading videos...
          </p>
        )
      ) : groups.every((g) => g.videos.length === 0) ? (
        <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center">
          <Film className="h-8 w-8 text-slate-400" aria-hidden />
          <p className="mt-3 text-lg font-semibold text-brand-900">
            {filter ? `No videos in ${categoryLabel(filter)} yet` : "No videos yet"}
          </p>
          <button type="button" className="btn-primary mt-5" onClick={openAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Video
          </button>
        </div>
      ) : (
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
                        onClick={() => void move(video, -1)}
                        disabled={i === 0 || moving !== null}
                        aria-label={`Move ${video.title} up`}
                      >
                        <ArrowUp className="h-4 w-4" aria-hidden />
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2"
                        onClick={() => void move(video, 1)}
                        disabled={i === g.videos.length - 1 || moving !== null}
                        aria-label={`Move ${video.title} down`}
                      >
                        <ArrowDown className="h-4 w-4" aria-hidden />
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2.5"
                        onClick={() => (setFormError(null), setEditing({ mode: "edit", video }))}
                        aria-label={`Edit ${video.title}`}
                      >
                        <Pencil className="h-4 w-4" aria-hidden />
                        <span aria-hidden>Edit</span>
                      </button>
                      <button
                        type="button"
                        className="btn-ghost px-2.5 text-red-700 hover:bg-red-50"
                        onClick={() => setDeleting(video)}
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
      )}

      <VideoFormDialog
        open={editing !== null}
        video={editing?.mode === "edit" ? editing.video : null}
        defaultCategory={filter || null}
        busy={saving}
        error={formError}
        onClose={() => setEditing(null)}
        onSubmit={(input) => void save(input)}
      />
      <DeleteVideoDialog video={deleting} busy={deleteBusy} onCancel={() => setDeleting(null)} onConfirm={() => void confirmDelete()} />
    </AdminPanel>
  );
}

function DeleteVideoDialog({
  video,
  busy,
  onCancel,
  onConfirm,
}: {
  video: VideoJson | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={video !== null}
      onOpenChange={(o) => !o && !busy && onCancel()}
      title="Delete Video"
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
      {video ? (
        <p>
          <span className="font-semibold text-brand-900">{video.title}</span> will be removed from {categoryLabel(video.category)} for every
          member.
        </p>
      ) : null}
    </Modal>
  );
}
