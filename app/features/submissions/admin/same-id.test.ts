import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import type { SubmissionDetail, SubmissionsPage } from "../contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * Notes and assignments are keyed by the submission's table and id: a contact message and a
 * CPA request with the same numeric id never share them. Showing, unassigning and deleting
 * one leaves the other's exactly as it was.
 */
describeEachDatabase("a contact message and a CPA request with the same id", (dialect) => {
  let server: TestServer;
  let ann: { cookie: string; userId: number };
  let bob: { cookie: string; userId: number };
  let id: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ann = await loginAs(server, "limited_admin", { username: `ann-sameid-${dialect}` });
    bob = await loginAs(server, "super_admin", { username: `bob-sameid-${dialect}` });
    const repo = server.services.submissions.repository;
    const contact = () =>
      repo.insert("contact", { name: "Twin Contact", email: "twin.contact@example.com", phone: null, subject: "s", message: "m" });
    const cpa = () =>
      repo.insert("cpa", {
        first_name: "Twin",
        last_name: "Cpa",
        email: "twin.cpa@example.com",
        phone: null,
        firm_name: null,
        city: null,
        state: null,
        zip: null,
        notes: null,
        member_id: null,
      });
    // Whatever ids the tables hold already, insert until both have a row of the same id.
    let [c, r] = [(await contact()).id, (await cpa()).id];
    while (c !== r) {
      if (c < r) c = (await contact()).id;
      else r = (await cpa()).id;
    }
    id = c;
  });
  afterAll(() => server.close());

  const contactRef = () => `contact_${id}`;
  const cpaRef = () => `cpa_${id}`;
  const call = async (path: string, init: Parameters<TestServer["request"]>[1] = {}) => {
    const res = await server.request(path, { cookie: ann.cookie, ...init });
    expect(res.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(300);
    return res.json();
  };
  const detail = async (ref: string) => (await call(`/api/admin/submissions/${ref}`)).submission as SubmissionDetail;
  const note = (ref: string, body: string) => call(`/api/admin/submissions/${ref}/notes`, { method: "POST", json: { body } });
  const assign = (ref: string, userId: number | null) =>
    call(`/api/admin/submissions/${ref}/assignee`, { method: "PUT", json: { userId } });
  const listed = async (ref: string) =>
    ((await call(`/api/admin/submissions?search=twin&limit=100`)) as SubmissionsPage).submissions.find((s) => s.id === ref);
  // What is stored for either submission of this number, by the table its list row names.
  const storedIn = async (table: "submission_notes" | "submission_assignments", column: "body" | "user_id") =>
    (
      await sql<Record<string, unknown>>`select l.source as submission_table, x.${sql.ref(column)}
        from ${sql.table(table)} x join submissions l on l.id = x.submission_id
        where l.row_id = ${id} order by l.source`.execute(server.services.database.db)
    ).rows.map((r) => ({ ...r, ...(column === "user_id" ? { user_id: Number(r.user_id) } : {}) }));
  const stored = async () => ({
    notes: await storedIn("submission_notes", "body"),
    assignments: await storedIn("submission_assignments", "user_id"),
  });

  it("each shows only its own notes and assignee", async () => {
    await note(contactRef(), "Contact note");
    await note(cpaRef(), "CPA note");
    await assign(contactRef(), ann.userId);
    await assign(cpaRef(), bob.userId);

    const [contact, cpa] = [await detail(contactRef()), await detail(cpaRef())];
    expect(contact.notes.map((n) => n.body)).toEqual(["Contact note"]);
    expect(cpa.notes.map((n) => n.body)).toEqual(["CPA note"]);
    expect(contact.assignedTo?.id).toBe(ann.userId);
    expect(cpa.assignedTo?.id).toBe(bob.userId);
    expect((await listed(contactRef()))?.assignedTo?.id).toBe(ann.userId);
    expect((await listed(cpaRef()))?.assignedTo?.id).toBe(bob.userId);
  });

  it("unassigning one leaves the other assigned", async () => {
    await assign(contactRef(), null);
    expect((await detail(contactRef())).assignedTo).toBeUndefined();
    expect((await detail(cpaRef())).assignedTo?.id).toBe(bob.userId);
    expect((await listed(cpaRef()))?.assignedTo?.id).toBe(bob.userId);
    await assign(contactRef(), ann.userId);
  });

  it("deleting one keeps the other's notes and assignment", async () => {
    await call("/api/admin/forms", { method: "DELETE", json: { idsByTable: { contact_messages: [id] } } });
    const res = await server.request(`/api/admin/submissions/${contactRef()}`, { cookie: ann.cookie });
    expect(res.status).toBe(404);
    expect(await stored()).toEqual({
      notes: [{ submission_table: "cpa_requests", body: "CPA note" }],
      assignments: [{ submission_table: "cpa_requests", user_id: bob.userId }],
    });
    const cpa = await detail(cpaRef());
    expect(cpa.notes.map((n) => n.body)).toEqual(["CPA note"]);
    expect(cpa.assignedTo?.id).toBe(bob.userId);
  });
});
