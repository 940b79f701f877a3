import type { Kysely } from "kysely";
import type { AppMigration } from "./types";

/**
 * The co-insured of a household plan (issue 39): the application's co-applicant, covered by
 * the same certificate. At most one per plan, gone with the plan (and so with the member).
 *
 * Plans made from an application before this (their `membership.plan` audit entry names the
 * application, which is still linked to the member) get the application's co-applicant, so a
 * household approved earlier shows both people too. Members imported, or given a plan by
 * staff, get none.
 */
export const m0034_membership_co_insured: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("membership_co_insured")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("membership_plans.user_id").onDelete("cascade"))
      .addColumn("first_name", "text", (c) => c.notNull())
      .addColumn("last_name", "text")
      // YYYY-MM-DD
      .addColumn("birthdate", "text")
      .addColumn("gender", "text")
      .addColumn("email", "text")
      .addColumn("phone", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await fromApplications(db);
  },
};

async function fromApplications(db: Kysely<any>) {
  const entries: Array<{ target_id: number | string | null; details: string | null }> = await db
    .selectFrom("audit_log")
    .select(["target_id", "details"])
    .where("action", "=", "membership.plan")
    .where("details", "like", '%"application":"application_%')
    .orderBy("id")
    .execute();
  const now = new Date().toISOString();
  for (const entry of entries) {
    const applicationId = applicationOf(entry.details);
    if (entry.target_id === null || applicationId === null) continue;
    const userId = Number(entry.target_id);
    const app = await db
      .selectFrom("applications")
      .innerJoin("membership_plans", "membership_plans.user_id", "applications.member_user_id")
      .select(["co_applicant_name", "co_dob", "co_gender", "co_email", "co_phone"])
      .where("applications.id", "=", applicationId)
      // Still this member's application (a deleted member's id may have been given again).
      .where("applications.member_user_id", "=", userId)
      .executeTakeFirst();
    const words = String(app?.co_applicant_name ?? "")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (!app || words.length === 0) continue;
    await db
      .insertInto("membership_co_insured")
      .values({
        user_id: userId,
        first_name: words.length === 1 ? words[0] : words.slice(0, -1).join(" "),
        last_name: words.length === 1 ? null : words[words.length - 1],
        birthdate: app.co_dob || null,
        gender: app.co_gender || null,
        email: app.co_email || null,
        phone: app.co_phone || null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc: any) => oc.column("user_id").doNothing())
      .execute();
  }
}

function applicationOf(details: string | null): number | null {
  try {
    const match = /^application_(\d{1,15})$/.exec(String((JSON.parse(details ?? "{}") as { application?: unknown }).application));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
