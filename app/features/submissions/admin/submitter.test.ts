import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, sessionCookieFrom, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import type { SubmissionDetail } from "../contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * Who sent a submission while signed in is shown by name, not by user id; a deleted sender is
 * cleared (submissions.submitted_by, on delete set null: migration 0031).
 */
describeEachDatabase("the detail names who submitted", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = await loginAs(server, "limited_admin", { username: `submitter-staff-${dialect}` });
  });
  afterAll(() => server.close());

  const contact = (by: number | null) =>
    server.services.submissions.repository.insert(
      "contact",
      { name: "Signed In", email: "signed@example.com", phone: null, subject: "s", message: "m" },
      undefined,
      by,
    );
  const submittedBy = async (id: number) => {
    const res = await server.request(`/api/admin/submissions/contact_${id}`, { cookie: staff.cookie });
    const detail = (await res.json()).submission as SubmissionDetail;
    return detail.fields.find((f) => f.key === "submitted_by");
  };

  it("shows a member's name and certificate, a staff member's username, and a deleted user as such", async () => {
    const { auth } = server.services;
    const member = await auth.users.createMember({
      certificate: `C${dialect}77`,
      birthdateDigest: auth.digestBirthdate("1980-01-15"),
      firstName: "Pat",
      lastName: "Lee",
    });
    expect(await submittedBy((await contact(member.id)).id)).toEqual({
      key: "submitted_by",
      label: "Submitted by",
      value: `Pat Lee (member, certificate C${dialect}77)`,
    });
    expect((await submittedBy((await contact(staff.userId)).id))?.value).toBe(`submitter-staff-${dialect} (staff)`);
    expect((await submittedBy((await contact(null)).id))?.value).toBeNull();
  });

  it("a submission whose sender was deleted stays, with no sender: no answer names an account that is gone", async () => {
    const { auth } = server.services;
    const member = await auth.users.createMember({
      certificate: `GONE-${dialect.toUpperCase()}`,
      birthdateDigest: auth.digestBirthdate("1981-02-16"),
      firstName: "Gone",
      lastName: "Member",
    });
    const sent = await contact(member.id);
    const login = await server.request("/api/auth/login", {
      method: "POST",
      json: { username: `GONE-${dialect.toUpperCase()}`, password: "021681" },
    });
    const cookie = sessionCookieFrom(login);
    const account = await (await server.request("/api/account", { cookie })).json();
    expect(account.submissions).toEqual([expect.objectContaining({ ref: `contact_${sent.id}` })]);

    // A user id is never given again (autoincrement, serial): nobody can inherit the submission.
    await server.services.database.db.deleteFrom("users").where("id", "=", member.id).execute();
    expect((await submittedBy(sent.id))?.value).toBeNull();
    const stored = await server.services.database.db
      .selectFrom("submissions")
      .select("submitted_by")
      .where("source", "=", "contact_messages")
      .where("row_id", "=", sent.id)
      .executeTakeFirstOrThrow();
    expect(stored.submitted_by).toBeNull();
    const legacy = await (await server.request("/api/admin/forms", { cookie: staff.cookie })).json();
    expect(legacy.contact_messages.find((r: { id: number }) => r.id === sent.id)).toMatchObject({ submitted_by: null, status: "pending" });
    expect((await server.request("/api/account", { cookie })).status).toBe(401);
  });
});
