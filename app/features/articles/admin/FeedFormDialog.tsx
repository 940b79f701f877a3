import { useEffect, useId, useState, type FormEvent } from "react";
import { CircleAlert, LoaderCircle } from "lucide-react";
import { Modal } from "~/components/Modal";
import { CATEGORY_GROUPS, CATEGORY_LABELS, DEFAULT_CATEGORY } from "../categories";
import type { FeedInput, RssFeed } from "../contract";
import { feedInputSchema } from "../contract";

type FieldErrors = Partial<Record<"name" | "url" | "category", string>>;

const emptyFeed: FeedInput = { name: "", url: "", category: DEFAULT_CATEGORY, is_active: true };

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
  const [values, setValues] = useState<FeedInput>(emptyFeed);
  const [errors, setErrors] = useState<FieldErrors>({});
  const uid = useId();

  useEffect(() => {
    if (!open) return;
    setValues(feed ? { name: feed.name, url: feed.url, category: feed.category, is_active: feed.is_active } : emptyFeed);
    setErrors({});
  }, [open, feed]);

  const filled = values.name.trim() !== "" && values.url.trim() !== "";
  const set = <K extends keyof FeedInput>(key: K, value: FeedInput[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!filled || busy) return;
    const parsed = feedInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof FieldErrors;
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    onSubmit({ name: parsed.data.name, url: parsed.data.url, category: parsed.data.category, is_active: parsed.data.is_active });
  }

  const formId = `${uid}-form`;
  const fieldId = (name: string) => `${uid}-${name}`;
  const described = (name: keyof FieldErrors) =>
    errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${fieldId(name)}-error` } : {};

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && !busy && onClose()}
      title={editing ? "Edit Feed" : "Add Feed"}
      description={
        editing
          ? "Change where this feed comes from, its category or whether it is ingested."
          : "Articles of an enabled feed appear in the knowledge center after the next ingest."
      }
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn-primary" disabled={!filled || busy}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
            {editing ? (busy ? "Saving..." : "Save Changes") : busy ? "Adding..." : "Add Feed"}
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
          <label htmlFor={fieldId("name")} className="field-label">
            Name
          </label>
          <input
            id={fieldId("name")}
            name="name"
            className="field-input"
            value={values.name}
            onChange={(e) => set("name", e.target.value)}
            required
            maxLength={200}
            autoComplete="off"
            {...described("name")}
          />
          {errors.name ? (
            <p id={`${fieldId("name")}-error`} className="field-error">
              {errors.name}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={fieldId("url")} className="field-label">
            URL
          </label>
          <input
            id={fieldId("url")}
            name="url"
            type="url"
            inputMode="url"
            className="field-input"
            placeholder="https://example.com/feed.xml"
            value={values.url}
            onChange={(e) => set("url", e.target.value)}
            required
            maxLength={2000}
            autoComplete="off"
            {...described("url")}
          />
          {errors.url ? (
            <p id={`${fieldId("url")}-error`} className="field-error">
              {errors.url}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={fieldId("category")} className="field-label">
            Category
          </label>
          <select
            id={fieldId("category")}
            name="category"
            className="field-input"
            value={values.category}
            onChange={(e) => set("category", e.target.value)}
            {...described("category")}
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
          {errors.category ? (
            <p id={`${fieldId("category")}-error`} className="field-error">
              {errors.category}
            </p>
          ) : null}
        </div>
        <div className="flex items-start gap-3">
          <input
            id={fieldId("enabled")}
            name="is_active"
            type="checkbox"
            className="mt-1 h-4 w-4 rounded border-slate-400 text-brand-700 focus:ring-brand-500"
            checked={values.is_active}
            onChange={(e) => set("is_active", e.target.checked)}
            aria-describedby={`${fieldId("enabled")}-hint`}
          />
          <div className="text-sm">
            <label htmlFor={fieldId("enabled")} className="font-medium text-slate-800">
              Enabled
            </label>
            <p id={`${fieldId("enabled")}-hint`} className="text-slate-600">
              Only enabled feeds are ingested.
            </p>
          </div>
        </div>
      </form>
    </Modal>
  );
}
