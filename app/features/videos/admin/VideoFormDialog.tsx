import { useEffect, useId, useState, type FormEvent } from "react";
import { CircleAlert, LoaderCircle } from "lucide-react";
import { Modal } from "~/components/Modal";
import { CATEGORY_GROUPS, CATEGORY_LABELS } from "~/features/articles/categories";
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX, videoInputSchema, type VideoInput, type VideoJson } from "../contract";

type Field = "title" | "youtube" | "category" | "duration" | "description";
type Values = { title: string; youtube: string; category: string; duration: string; description: string };

const empty: Values = { title: "", youtube: "", category: "home_improvement", duration: "", description: "" };

/** Add or edit one video: title, YouTube URL or ID, category, duration, description. */
export function VideoFormDialog({
  open,
  video,
  defaultCategory,
  busy,
  error,
  onClose,
  onSubmit,
}: {
  open: boolean;
  video: VideoJson | null;
  defaultCategory: string | null;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: (input: VideoInput) => void;
}) {
  const editing = video !== null;
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const uid = useId();

  useEffect(() => {
    if (!open) return;
    setValues(
      video
        ? {
            title: video.title,
            youtube: video.youtube_id,
            category: video.category,
            duration: video.duration ?? "",
            description: video.description,
          }
        : { ...empty, category: defaultCategory ?? empty.category },
    );
    setErrors({});
  }, [open, video, defaultCategory]);

  const set = (key: Field, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = videoInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Field;
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    onSubmit({ ...values, category: parsed.data.category, youtube: parsed.data.youtube });
  }

  const formId = `${uid}-form`;
  const fid = (name: Field) => `${uid}-${name}`;
  const invalid = (name: Field) => (errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${fid(name)}-error` } : {});
  const fieldError = (name: Field) =>
    errors[name] ? (
      <p id={`${fid(name)}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && !busy && onClose()}
      title={editing ? "Edit Video" : "Add Video"}
      description="Members see the videos of each category in the Video Tutorials dialog of the knowledge center."
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn-primary" disabled={busy}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
            {editing ? (busy ? "Saving..." : "Save Changes") : busy ? "Adding..." : "Add Video"}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-4">
        {error ? (
          <p role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            {error}
          </p>
        ) : null}
        <div>
          <label htmlFor={fid("title")} className="field-label">
            Title
          </label>
          <input
            id={fid("title")}
            className="field-input"
            value={values.title}
            maxLength={VIDEO_TITLE_MAX}
            onChange={(e) => set("title", e.target.value)}
            required
            autoComplete="off"
            {...invalid("title")}
          />
          {fieldError("title")}
        </div>
        <div>
          <label htmlFor={fid("youtube")} className="field-label">
            YouTube URL or video ID
          </label>
          <input
            id={fid("youtube")}
            className="field-input"
            value={values.youtube}
            onChange={(e) => set("youtube", e.target.value)}
            placeholder="https://www.youtube.com/watch?v=..."
            required
            autoComplete="off"
            {...invalid("youtube")}
          />
          {fieldError("youtube")}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={fid("category")} className="field-label">
              Category
            </label>
            <select
              id={fid("category")}
              className="field-input"
              value={values.category}
              onChange={(e) => set("category", e.target.value)}
              {...invalid("category")}
            >
              {CATEGORY_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.values.map((value) => (
                    <option key={value} value={value}>
                      {CATEGORY_LABELS[value]}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            {fieldError("category")}
          </div>
          <div>
            <label htmlFor={fid("duration")} className="field-label">
              Duration (optional)
            </label>
            <input
              id={fid("duration")}
              className="field-input"
              value={values.duration}
              onChange={(e) => set("duration", e.target.value)}
              placeholder="4:05"
              autoComplete="off"
              {...invalid("duration")}
            />
            {fieldError("duration")}
          </div>
        </div>
        <div>
          <label htmlFor={fid("description")} className="field-label">
            Description (optional)
          </label>
          <textarea
            id={fid("description")}
            className="field-input min-h-24"
            value={values.description}
            maxLength={VIDEO_DESCRIPTION_MAX}
            onChange={(e) => set("description", e.target.value)}
            {...invalid("description")}
          />
          {fieldError("description")}
        </div>
      </form>
    </Modal>
  );
}
