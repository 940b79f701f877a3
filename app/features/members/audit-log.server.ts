import type { Kysely } from "kysely";
import { nowIso } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import type { AuditPage, AuditQuery } from "./contract";
import type { AuditAction, AuditEntry, AuditRecord, AuditRecorder } from "~/domain/audit";

/**
 * The history of staff actions, as Django admin keeps its LogEntry: one row per action with
 * who, when, what, on whom and how many rows. One call writes an entry; pass a transaction
 * as `db` to write it together with the change it describes (both or neither).
 */
export class AuditLog implements AuditRecorder {
  constructor(private db: Kysely<Database>) {}

  async record(entry: AuditRecord, db: Kysely<Database> = this.db): Promise<void> {
    const actorId = entry.actorId;
    await db
      .insertInto("audit_log")
      .values((eb) => ({
        created_at: nowIso(),
        actor_id: actorId,
        // A copy of the name, so the entry still says who after the account is gone.
        actor_label: actorId === null ? null : eb.selectFrom("users").select("username").where("id", "=", actorId),
        action: entry.action,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        target_label: entry.target?.label ?? null,
        row_count: entry.rowCount ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
      }))
      .execute();
  }

  /** Newest first, optionally one person's or one action's entries. */
  async list(query: Pick<AuditQuery, "actorId" | "action" | "page" | "pageSize">): Promise<Omit<AuditPage, "success">> {
    let base = this.db.selectFrom("audit_log");
    if (query.actorId !== undefined) base = base.where("actor_id", "=", query.actorId);
    if (query.action !== undefined) base = base.where("action", "=", query.action);
    const [countRow, rows, actors] = await Promise.all([
      base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirst(),
      base
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      this.actors(),
    ]);
    const total = Number(countRow?.n ?? 0);
    return {
      entries: rows.map(toEntry),
      pagination: { page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) },
      actors,
    };
  }

  private async actors(): Promise<Array<{ id: number; label: string }>> {
    const rows = await this.db
      .selectFrom("audit_log")
      .select(["actor_id", (eb) => eb.fn.max("actor_label").as("label")])
      .where("actor_id", "is not", null)
      .groupBy("actor_id")
      .execute();
    return rows.map((r) => ({ id: Number(r.actor_id), label: r.label ?? `#${r.actor_id}` })).sort((a, b) => a.label.localeCompare(b.label));
  }
}

function toEntry(row: {
  id: number;
  created_at: string;
  actor_id: number | null;
  actor_label: string | null;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_label: string | null;
  row_count: number | null;
  details: string | null;
}): AuditEntry {
  let details: Record<string, unknown> | null = null;
  if (row.details) {
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = null;
    }
  }
  return {
    id: row.id,
    created_at: row.created_at,
    actor_id: row.actor_id,
    actor_label: row.actor_label,
    action: row.action as AuditAction,
    target_type: row.target_type,
    target_id: row.target_id,
    target_label: row.target_label,
    row_count: row.row_count === null ? null : Number(row.row_count),
    details,
  };
}
