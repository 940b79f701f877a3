import { FormDialog } from "~/components/admin/FormDialog";
import { GroupedOptions } from "~/components/forms/GroupedOptions";
import { Field, inputProps, selectProps } from "~/components/forms/FormParts";
import { CATEGORY_GROUPS, categoryLabel, DEFAULT_CATEGORY } from "~/domain/article-categories";
import { FEED_NAME_MAX, FEED_URL_MAX, feedFormSchema, type FeedInput, type RssFeed } from "../contract";

const filled = (v: unknown) => typeof v === "string" && v.trim() !== "";

/**
 * The add and edit feed dialog (spec: admin-side sections 2 and 5): name, url (url input),
 * category from grouped options, and an 'enabled' checkbox for is_active. The submit button
 * stays disabled until name and url are both filled.
 */
export function FeedFormDialog({
  open,
  feed,
  busy,
  error,
  onClose,
  onSubmit,
}: {
  open: boolean;
  /** The feed being edited; null to add a new one. */
  feed: RssFeed | null;
  busy: boolean;
  /** The failure of the last attempt, shown inside the dialog so nothing typed is lost. */
  error: string | null;
  onClose: () => void;
  onSubmit: (input: FeedInput) => void;
}) {
  const editing = feed !== null;
  return (
    <FormDialog
      open={open}
      title={editing ? "Edit Feed" : "Add Feed"}
      description={
        editing
          ? "Change where this feed comes from, its category or whether it is ingested."
          : "Articles of an enabled feed appear in the knowledge center after the next ingest."
      }
      schema={feedFormSchema}
      defaultValue={
        feed
          ? { name: feed.name, url: feed.url, category: feed.category, is_active: feed.is_active ? "on" : undefined }
          : { category: DEFAULT_CATEGORY, is_active: "on" }
      }
      busy={busy}
      error={error}
      submitLabel={editing ? "Save Changes" : "Add Feed"}
      busyLabel={editing ? "Saving..." : "Adding..."}
      canSubmit={(value) => filled(value?.name) && filled(value?.url)}
      onClose={onClose}
      onSubmit={(data) => onSubmit({ name: data.name, url: data.url, category: data.category, is_active: data.is_active })}
    >
      {(fields) => (
        <>
          <Field meta={fields.name} label="Name" required>
            <input {...inputProps(fields.name, { type: "text" })} className="field-input" maxLength={FEED_NAME_MAX} autoComplete="off" />
          </Field>
          <Field meta={fields.url} label="URL" required>
            <input
              {...inputProps(fields.url, { type: "url" })}
              inputMode="url"
              className="field-input"
              placeholder="https://example.com/feed.xml"
              maxLength={FEED_URL_MAX}
              autoComplete="off"
            />
          </Field>
          <Field meta={fields.category} label="Category" required>
            <select {...selectProps(fields.category)} className="field-input">
              <GroupedOptions groups={CATEGORY_GROUPS} labelOf={categoryLabel} />
            </select>
          </Field>
          <div className="flex items-start gap-3">
            <input
              {...inputProps(fields.is_active, { type: "checkbox", ariaDescribedBy: fields.is_active.descriptionId })}
              className="mt-1 h-4 w-4 rounded border-slate-400 text-brand-700 focus:ring-brand-500"
            />
            <div className="text-sm">
              <label htmlFor={fields.is_active.id} className="font-medium text-slate-800">
                Enabled
              </label>
              <p id={fields.is_active.descriptionId} className="text-slate-600">
                Only enabled feeds are ingested.
              </p>
            </div>
          </div>
        </>
      )}
    </FormDialog>
  );
}
