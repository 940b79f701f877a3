import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import type { SubmissionDetail } from "../contract";

/* Who sent a submission while signed in is shown by name, not by user id. */
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
    expect((await submittedBy((await contact(999_999)).id))?.value).toBe("A deleted user (#999999)");
    expect((await submittedBy((await contact(null)).id))?.value).toBeNull();
  });
});
