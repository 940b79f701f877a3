import { FormDialog } from "~/components/admin/FormDialog";
import { GroupedOptions } from "~/components/forms/GroupedOptions";
import { Field, inputProps, selectProps, textareaProps } from "~/components/forms/FormParts";
import { CATEGORY_GROUPS, categoryLabel } from "~/domain/article-categories";
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX, videoInputSchema, type VideoInput, type VideoJson } from "../contract";

const DEFAULT_CATEGORY = "home_improvement";

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
  /** The category the list shows, preselected for a new video. */
  defaultCategory: string | null;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: (input: VideoInput) => void;
}) {
  const editing = video !== null;
  return (
    <FormDialog
      open={open}
      title={editing ? "Edit Video" : "Add Video"}
      description="Members see the videos of each category in the Video Tutorials dialog of the knowledge center."
      schema={videoInputSchema}
      defaultValue={
        video
          ? {
              title: video.title,
              youtube: video.youtube_id,
              category: video.category,
              duration: video.duration ?? "",
              description: video.description,
            }
          : { category: defaultCategory ?? DEFAULT_CATEGORY }
      }
      busy={busy}
      error={error}
      submitLabel={editing ? "Save Changes" : "Add Video"}
      busyLabel={editing ? "Saving..." : "Adding..."}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      {(fields) => (
        <>
          <Field meta={fields.title} label="Title" required>
            <input {...inputProps(fields.title, { type: "text" })} className="field-input" maxLength={VIDEO_TITLE_MAX} autoComplete="off" />
          </Field>
          <Field meta={fields.youtube} label="YouTube URL or video ID" required>
            <input
              {...inputProps(fields.youtube, { type: "text" })}
              className="field-input"
              placeholder="https://www.youtube.com/watch?v=..."
              autoComplete="off"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field meta={fields.category} label="Category" required>
              <select {...selectProps(fields.category)} className="field-input">
                <GroupedOptions groups={CATEGORY_GROUPS} labelOf={categoryLabel} />
              </select>
            </Field>
            <Field meta={fields.duration} label="Duration" optional>
              <input {...inputProps(fields.duration, { type: "text" })} className="field-input" placeholder="4:05" autoComplete="off" />
            </Field>
          </div>
          <Field meta={fields.description} label="Description" optional>
            <textarea {...textareaProps(fields.description)} className="field-input min-h-24" maxLength={VIDEO_DESCRIPTION_MAX} />
          </Field>
        </>
      )}
    </FormDialog>
  );
}
