import { useCallback, useEffect, useRef, useState } from "react";
import { errorReason } from "~/platform/json-client";
import { useFlashMessage } from "./useFlashMessage";

/** How an admin list reads and writes its records. */
export interface RecordListApi<T, I> {
  list: () => Promise<T[]>;
  add: (input: I) => Promise<unknown>;
  update: (record: T, input: I) => Promise<unknown>;
  remove: (record: T) => Promise<unknown>;
}

/** The list's messages, in the spec's words ("Feed added successfully!", "Failed to add feed: <reason>"). */
export interface RecordListMessages {
  loadFailed: (reason: string) => string;
  addFailed: (reason: string) => string;
  updateFailed: (reason: string) => string;
  deleteFailed: (reason: string) => string;
  added: string;
  updated: string;
  deleted: string;
}

type Editing<T> = { mode: "add" } | { mode: "edit"; record: T } | null;

/**
 * An admin list of records with add, edit and delete (the RSS feeds, the videos): loads on
 * mount and after every change, keeps the add/edit dialog's and the delete confirmation's
 * state, and reports each outcome as a message that clears itself. A failed save is reported
 * once, in the dialog, where the record can be corrected; the page behind says nothing.
 */
export function useRecordList<T, I>(api: RecordListApi<T, I>, messages: RecordListMessages) {
  const [records, setRecords] = useState<T[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const flash = useFlashMessage();
  const { show } = flash;
  // The caller's api and messages may be new objects on every render; the latest are used.
  const latest = useRef({ api, messages });
  latest.current = { api, messages };

  const load = useCallback(async () => {
    setRefreshing(true);
    try {
      setRecords(await latest.current.api.list());
      setLoadFailed(false);
    } catch (err) {
      setLoadFailed(true);
      show("error", latest.current.messages.loadFailed(errorReason(err)));
    } finally {
      setRefreshing(false);
    }
  }, [show]);

  useEffect(() => {
    void load();
  }, [load]);

  async function save(input: I) {
    if (!editing || saving) return;
    setSaving(true);
    setFormError(null);
    try {
      if (editing.mode === "add") await api.add(input);
      else await api.update(editing.record, input);
      show("success", editing.mode === "add" ? messages.added : messages.updated);
      setEditing(null);
      await load();
    } catch (err) {
      setFormError(editing.mode === "add" ? messages.addFailed(errorReason(err)) : messages.updateFailed(errorReason(err)));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    if (deleting === null || deleteBusy) return;
    setDeleteBusy(true);
    try {
      await api.remove(deleting);
      show("success", messages.deleted);
    } catch (err) {
      show("error", messages.deleteFailed(errorReason(err)));
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
    await load();
  }

  const closeEditor = () => setEditing(null);
  const saveInput = (input: I) => void save(input);
  const cancelDelete = () => setDeleting(null);
  const confirm = () => void confirmDelete();
  return {
    records,
    /** Replace the records shown (after a change whose answer already has them, such as a new order). */
    setRecords,
    /** "loading", "error" (no list yet), "empty" or "ready". */
    state:
      records === null
        ? loadFailed
          ? ("error" as const)
          : ("loading" as const)
        : records.length === 0
          ? ("empty" as const)
          : ("ready" as const),
    refreshing,
    load,
    flash,
    editor: {
      /** The record being edited; null when adding. */
      record: editing?.mode === "edit" ? editing.record : null,
      openAdd: () => {
        setFormError(null);
        setEditing({ mode: "add" });
      },
      openEdit: (record: T) => {
        setFormError(null);
        setEditing({ mode: "edit", record });
      },
      /** What the add/edit dialog (on FormDialog) takes from the list. */
      dialogProps: { open: editing !== null, busy: saving, error: formError, onClose: closeEditor, onSubmit: saveInput },
    },
    deletion: {
      /** The record asked about. */
      record: deleting,
      ask: (record: T) => setDeleting(record),
      /** What the ConfirmDialog takes from the list. */
      dialogProps: { open: deleting !== null, busy: deleteBusy, onCancel: cancelDelete, onConfirm: confirm },
    },
  };
}
