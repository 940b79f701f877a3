import Papa from "papaparse";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { submissionIdentity } from "../../../../tests/support/submission-fixtures";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import { guardRows, sessionKey } from "../../../../tests/support/row-guard";
import type { AuditEntry } from "~/domain/audit";
import { MESSAGES, type SubmissionDetail, type SubmissionsPage } from "../contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * Assigning submissions to staff: PUT /api/admin/submissions/:id/assignee, the assignee in the
 * list and the detail, the 'Assigned to me' filter (assigned=me) with every other filter, the
 * export of exactly those rows, and what an assignment must not outlive.
 */
describeEachDatabase("assigning submissions to staff", (dialect) => {
  let server: TestServer;
  let ann: { cookie: string; userId: number };
  let bob: { cookie: string; userId: number };
  let member: { cookie: string; userId: number };
  const refs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ann = await loginAs(server, "limited_admin", { username: `ann-assign-${dialect}` });
    bob = await loginAs(server, "super_admin", { username: `bob-assign-${dialect}` });
    member = await loginAs(server, "member");
    const repo = server.services.submissions.repository;
    // Five submissions of three sources, one a day, all with "assigntest" in their text.
    const day = (d: number) => new Date(Date.UTC(2023, 5, d, 12)).toISOString();
    for (const [i, name] of ["Alpha", "Bravo", "Charlie"].entries()) {
      const row = await repo.insert(
        "contact",
        { name: `${name} Assigntest`, email: `${name.toLowerCase()}@example.com`, phone: null, subject: "s", message: "m" },
        day(i + 1),
      );
      refs.push(`contact_${row.id}`);
    }
    const cpa = await repo.insert(
      "cpa",
      {
        first_name: "Delta",
        last_name: "Assigntest",
        email: "delta@example.com",
        phone: null,
        firm_name: null,
        city: null,
        state: null,
        zip: null,
        notes: null,
        member_id: null,
      },
      day(4),
    );
    refs.push(`cpa_${cpa.id}`);
    const echo = await repo.insert(
      "contact",
      { name: "Echo Assigntest", email: "echo@example.com", phone: null, subject: "s", message: "m" },
      day(5),
    );
    refs.push(`contact_${echo.id}`);
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  const assign = (ref: string, body: unknown, cookie = ann.cookie) =>
    server.request(`/api/admin/submissions/${ref}/assignee`, { method: "PUT", json: body, cookie });
  const list = async (query: string, cookie = ann.cookie) => {
    // Every test's rows hold "assigntest": the lists see only this file's submissions.
    const search = query.includes("search=") ? "" : "search=assigntest&";
    const res = await server.request(`/api/admin/submissions?${search}${query}`, { cookie });
    expect(res.status, query).toBe(200);
    return (await res.json()) as SubmissionsPage;
  };
  const detail = async (ref: string) =>
    (await (await server.request(`/api/admin/submissions/${ref}`, { cookie: ann.cookie })).json()).submission as SubmissionDetail;
  const assignAudit = async () => {
    const res = await server.request(`/api/admin/audit?pageSize=100&action=submissions.assign`, { cookie: bob.cookie });
    return ((await res.json()).entries as AuditEntry[]).filter((e) => refs.includes(e.target_label ?? ""));
  };
  const names = (page: SubmissionsPage) => page.submissions.map((s) => s.applicantName.split(" ")[0]);

  it("assigns to an active staff member or to nobody, shows it in the list and the detail, and audits each change once", async () => {
    const [alpha] = refs;
    const before = await detail(alpha);
    expect(before.assignedTo).toBeUndefined();
    expect(before.assignees.map((a) => a.name)).toEqual(expect.arrayContaining([`ann-assign-${dialect}`, `bob-assign-${dialect}`]));
    expect(before.assignees.some((a) => a.id === member.userId)).toBe(false);

    const res = await assign(alpha, { userId: ann.userId });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, assignedTo: { id: ann.userId, name: `ann-assign-${dialect}` } });
    expect((await detail(alpha)).assignedTo).toEqual({ id: ann.userId, name: `ann-assign-${dialect}` });
    const row = (await list("")).submissions.find((s) => s.id === alpha)!;
    expect(row.assignedTo).toEqual({ id: ann.userId, name: `ann-assign-${dialect}` });
    expect((await list("")).submissions.filter((s) => s.assignedTo).map((s) => s.id)).toEqual([alpha]);

    // The same assignment again changes nothing, not even the audit log.
    const guard = await guardRows(db(), ["submission_assignments", "audit_log", "contact_messages"]);
    expect((await assign(alpha, { userId: ann.userId })).status).toBe(200);
    await guard.expectChanges({});

    expect((await assign(alpha, { userId: bob.userId }, bob.cookie)).status).toBe(200);
    expect(await (await assign(alpha, { userId: null }, bob.cookie)).json()).toEqual({ success: true, assignedTo: null });
    expect((await detail(alpha)).assignedTo).toBeUndefined();
    const audit = await assignAudit();
    expect(audit.map((e) => [e.target_type, e.target_label])).toEqual(Array(3).fill(["submission", alpha]));
    expect(audit.map((e) => [e.actor_label, e.details])).toEqual([
      [`bob-assign-${dialect}`, { table: "contact_messages", from: `bob-assign-${dialect}`, to: null }],
      [`bob-assign-${dialect}`, { table: "contact_messages", from: `ann-assign-${dialect}`, to: `bob-assign-${dialect}` }],
      [`ann-assign-${dialect}`, { table: "contact_messages", from: null, to: `ann-assign-${dialect}` }],
    ]);
  });

  it("refuses members, inactive staff, unknown people and submissions and malformed bodies, and changes nothing", async () => {
    const [, bravo] = refs;
    const inactive = await server.services.auth.createStaff(`gone-assign-${dialect}`, "correct horse battery", "limited_admin");
    await db().updateTable("users").set({ is_active: 0 }).where("id", "=", inactive.id).execute();
    const guard = await guardRows(db(), ["submission_assignments", "audit_log", "sessions"]);
    for (const userId of [member.userId, inactive.id, 2_000_000_000]) {
      const res = await assign(bravo, { userId });
      expect(res.status, String(userId)).toBe(400);
      expect((await res.json()).error).toBe(MESSAGES.badAssignee);
    }
    for (const body of [{}, { userId: "1" }, { userId: 0 }, { userId: 1.5 }, { userId: -1 }, { userId: 2 ** 31 }, [], "x", null])
      expect((await assign(bravo, body)).status, JSON.stringify(body)).toBe(400);
    expect((await assign("contact_999999", { userId: ann.userId })).status).toBe(404);
    expect((await assign("nope_1", { userId: ann.userId })).status).toBe(400);
    expect((await assign(bravo, { userId: ann.userId }, member.cookie)).status).toBe(403);
    expect((await server.request(`/api/admin/submissions/${bravo}/assignee`, { method: "PUT", json: { userId: ann.userId } })).status).toBe(
      401,
    );
    await guard.expectChanges({ sessions: { mayChange: [sessionKey(ann.cookie)] } });
  });

  it("'Assigned to me' lists the caller's own, with every other filter, sort and page, and exports exactly those rows", async () => {
    const [alpha, bravo, charlie, delta, echo] = refs;
    for (const ref of [bravo, delta, echo]) expect((await assign(ref, { userId: ann.userId })).status).toBe(200);
    expect((await assign(charlie, { userId: bob.userId })).status).toBe(200);
    await assign(alpha, { userId: null });
    expect((await list("")).pagination.total).toBe(5);

    const mine = await list("assigned=me");
    expect(names(mine)).toEqual(["Echo", "Delta", "Bravo"]);
    expect(mine.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
    expect(names(await list("assigned=me", bob.cookie))).toEqual(["Charlie"]);
    expect(names(await list("assigned=me&sort=name_asc"))).toEqual(["Bravo", "Delta", "Echo"]);
    expect(names(await list("assigned=me&type=form-request"))).toEqual(["Delta"]);
    expect(names(await list("assigned=me&type=contact-form&sort=date_asc"))).toEqual(["Bravo", "Echo"]);
    expect(names(await list("assigned=me&search=bravo"))).toEqual(["Bravo"]);
    const second = await list("assigned=me&limit=10&page=2");
    expect(second.submissions).toEqual([]);
    expect(second.pagination.total).toBe(3);

    await server.request("/api/admin/forms", { method: "PUT", json: { id: delta, status: "completed" }, cookie: ann.cookie });
    expect(names(await list("assigned=me&status=completed"))).toEqual(["Delta"]);
    expect(names(await list("assigned=me&status=pending"))).toEqual(["Echo", "Bravo"]);
    expect((await server.request("/api/admin/submissions?assigned=mine", { cookie: ann.cookie })).status).toBe(400);

    const exported = await server.request("/api/admin/submissions/export?search=assigntest&assigned=me&sort=name_asc", {
      cookie: ann.cookie,
    });
    expect(exported.status).toBe(200);
    const rows = Papa.parse<Record<string, string>>((await exported.text()).trim(), { header: true }).data;
    expect(rows.map((r) => r.id)).toEqual([bravo, delta, echo]);
  });

  it("a deleted submission takes its assignment with it; a removed staff account leaves its submissions unassigned", async () => {
    const repo = server.services.submissions.repository;
    const row = await repo.insert("contact", { name: "Gone Soon", email: "g@example.com", phone: null, subject: "s", message: "m" });
    const ref = `contact_${row.id}`;
    expect((await assign(ref, { userId: ann.userId })).status).toBe(200);
    const identity = await submissionIdentity(db(), "contact_messages", row.id);
    const deleted = await server.request("/api/admin/forms", {
      method: "DELETE",
      json: { idsByTable: { contact_messages: [row.id], cpa_requests: [], homeowner_material_requests: [], applications: [] } },
      cookie: ann.cookie,
    });
    expect(deleted.status).toBe(200);
    const left = () => db().selectFrom("submission_assignments").selectAll().where("submission_id", "=", identity).execute();
    expect(await left()).toEqual([]);

    const temp = await server.services.auth.createStaff(`temp-assign-${dialect}`, "correct horse battery", "limited_admin");
    const kept = await repo.insert("contact", { name: "Kept", email: "k@example.com", phone: null, subject: "s", message: "m" });
    expect((await assign(`contact_${kept.id}`, { userId: temp.id })).status).toBe(200);
    await db().deleteFrom("users").where("id", "=", temp.id).execute();
    expect((await detail(`contact_${kept.id}`)).assignedTo).toBeUndefined();
  });

  /** Five times: the action and the submission's deletion at once; what the action kept must go with the submission. */
  async function raceWithDeletion(
    act: (ref: string) => Promise<Response>,
    ok: number,
    kept: "submission_notes" | "submission_assignments",
  ) {
    const repo = server.services.submissions.repository;
    for (let i = 0; i < 5; i++) {
      const row = await repo.insert("contact", { name: `Race ${i}`, email: "r@example.com", phone: null, subject: "s", message: "m" });
      const identity = await submissionIdentity(db(), "contact_messages", row.id);
      const [acted, deleted] = await Promise.all([
        act(`contact_${row.id}`),
        server.request("/api/admin/forms", {
          method: "DELETE",
          json: { idsByTable: { contact_messages: [row.id], cpa_requests: [], homeowner_material_requests: [], applications: [] } },
          cookie: bob.cookie,
        }),
      ]);
      expect([ok, 404]).toContain(acted.status);
      expect(deleted.status).toBe(200);
      expect(await db().selectFrom(kept).select("submission_id").where("submission_id", "=", identity).execute()).toEqual([]);
    }
  }

  it("a note racing the submission's deletion is kept with it or refused (404), never left behind", () =>
    raceWithDeletion(
      (ref) => server.request(`/api/admin/submissions/${ref}/notes`, { method: "POST", json: { body: "Racing" }, cookie: ann.cookie }),
      201,
      "submission_notes",
    ));

  it("an assignment racing the submission's deletion never outlives it", () =>
    raceWithDeletion((ref) => assign(ref, { userId: ann.userId }), 200, "submission_assignments"));
});
