import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { insertApplication } from "../../../tests/support/submission-fixtures";
import { decodeBody, startSmtp } from "../../../tests/support/smtp";
import { MEMBERSHIP_MESSAGES } from "./contract";
import { formatCertificate, splitName } from "./membership.server";

describe("certificate numbers and names", () => {
  it("fills the format's zeros with the number", () => {
    expect(formatCertificate("AHA{0000000}", 1)).toBe("AHA0000001");
    expect(formatCertificate("M-{000}-X", 42)).toBe("M-042-X");
    expect(formatCertificate("{000}", 12345)).toBe("12345");
  });
  it("takes the last word as the last name", () => {
    expect(splitName("  Dana  Q. Reyes ")).toEqual({ first: "Dana Q.", last: "Reyes" });
    expect(splitName("Cher")).toEqual({ first: "Cher", last: null });
    expect(splitName(" ")).toEqual({ first: null, last: null });
  });
});

describeEachDatabase("from approved application to member", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(dialect, {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CERTIFICATE_FORMAT: "NEW{00000}",
      PUBLIC_URL: "https://aha.example",
    });
    staff = await loginAs(server, "limited_admin", { username: "membership-staff" });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const db = () => server.services.database.db;
  const create = (id: number, cookie = staff.cookie, on = server) =>
    on.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie });
  const approve = (id: number) => db().updateTable("applications").set({ status: "approved" }).where("id", "=", id).execute();
  /** The membership section of the submission's detail, as the inbox shows it. */
  const membershipShown = async (id: number) => {
    const res = await server.request(`/api/admin/submissions/application_${id}`, { cookie: staff.cookie });
    expect(res.status).toBe(200);
    return (await res.json()).submission.membership;
  };

  it("makes a member with a new number, the application's name and birthdate, linked both ways, welcomed once", async () => {
    const id = await insertApplication(db(), { applicant_name: "Avery J. Newmember", dob: "1985-03-07", email: "avery.new@example.com" });
    // Not before approval.
    const early = await create(id);
    expect(early.status).toBe(409);
    expect((await early.json()).error).toBe(MEMBERSHIP_MESSAGES.notApproved);
    expect(smtp.received).toHaveLength(0);
    expect(await membershipShown(id)).toEqual({ member: null, welcomeSentAt: null });

    await approve(id);
    const res = await create(id);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      created: true,
      welcome: "sent",
      member: { certificate: expect.stringMatching(/^NEW\d{5}$/) },
    });
    const user = await db().selectFrom("users").selectAll().where("id", "=", body.member.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      certificate_number: body.member.certificate,
      first_name: "Avery J.",
      last_name: "Newmember",
      email: "avery.new@example.com",
      application_id: id,
      role: "user",
    });
    expect(user.birthdate_digest).toBe(server.services.auth.digestBirthdate("1985-03-07"));
    const app = await db()
      .selectFrom("applications")
      .select(["member_user_id", "welcome_sent_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Number(app.member_user_id)).toBe(body.member.id);
    expect(app.welcome_sent_at).toEqual(expect.any(String));
    expect(await membershipShown(id)).toEqual({ member: body.member, welcomeSentAt: app.welcome_sent_at });

    // The member can sign in with the number and the birthdate as MMDDYY.
    const login = await server.request("/api/auth/login", {
      method: "POST",
      json: { username: body.member.certificate, password: "030785" },
    });
    expect(login.status).toBe(200);

    // The welcome e-mail: once, to the applicant, saying how to sign in.
    expect(smtp.received.map((m) => m.to)).toEqual([["avery.new@example.com"]]);
    const text = decodeBody(smtp.received[0].raw);
    expect(text).toContain(`Your certificate number is ${body.member.certificate}.`);
    expect(text).toContain("https://aha.example/login");

    // Again: the same member, no second account, no second e-mail.
    const again = await create(id);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: false, member: body.member, welcome: "already-sent" });
    expect(smtp.received).toHaveLength(1);

    const audit = await db()
      .selectFrom("audit_log")
      .select(["action", "target_label", "details"])
      .where("target_label", "=", body.member.certificate)
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["applications.member_created", "applications.welcome_sent"]);
    expect(JSON.parse(audit[0].details!)).toEqual({ application: `application_${id}` });
  });

  it("links an applicant who is already a member instead of making a second account", async () => {
    const existing = await server.services.auth.users.createMember({
      certificate: "OLD-777",
      birthdateDigest: server.services.auth.digestBirthdate("1970-12-01"),
      firstName: "Pat",
      lastName: "Existing",
    });
    const id = await insertApplication(db(), {
      applicant_name: "pat existing",
      dob: "1970-12-01",
      email: "pat@example.com",
      status: "approved",
    });
    const before = (await db().selectFrom("users").select("id").execute()).length;
    const res = await create(id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ created: false, member: { id: existing.id, certificate: "OLD-777" } });
    expect((await db().selectFrom("users").select("id").execute()).length).toBe(before);
    const user = await db().selectFrom("users").select("application_id").where("id", "=", existing.id).executeTakeFirstOrThrow();
    expect(Number(user.application_id)).toBe(id);
    const { welcome_sent_at } = await db()
      .selectFrom("applications")
      .select("welcome_sent_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await membershipShown(id)).toEqual({ member: { id: existing.id, certificate: "OLD-777" }, welcomeSentAt: welcome_sent_at });
  });

  it("an application whose member is being made shows no member yet", async () => {
    const id = await insertApplication(db(), { applicant_name: "Claimed Cleo", dob: "1990-01-02", status: "approved" });
    // What a staff member's claim writes before the member exists.
    await db().updateTable("applications").set({ member_user_id: -1 }).where("id", "=", id).execute();
    expect(await membershipShown(id)).toEqual({ member: null, welcomeSentAt: null });
  });

  it("two staff on two instances at once: one member, one number each time, numbers never shared", async () => {
    const sibling = await startSiblingServer(server);
    try {
      const ids = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          insertApplication(db(), {
            applicant_name: `Race Person${i}`,
            dob: "1990-01-0" + i,
            email: `race${i}@example.com`,
            status: "approved",
          }),
        ),
      );
      // Each application asked twice at once, on both instances.
      const answers = await Promise.all(ids.flatMap((id) => [create(id), create(id, staff.cookie, sibling)]));
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201, 201, 201, 201]);
      for (let i = 0; i < ids.length; i++) expect(bodies[2 * i].member).toEqual(bodies[2 * i + 1].member);
      const certificates = bodies.filter((_, i) => i % 2 === 0).map((b) => b.member.certificate);
      expect(new Set(certificates).size).toBe(4);
      const made = await db().selectFrom("users").select("id").where("application_id", "in", ids).execute();
      expect(made).toHaveLength(4);
      // Four welcome e-mails, one each.
      for (let i = 1; i <= 4; i++) expect(smtp.received.filter((m) => m.to.includes(`race${i}@example.com`))).toHaveLength(1);
    } finally {
      await sibling.close();
    }
  });

  it("skips a number an imported member already holds", async () => {
    const next = await db().selectFrom("certificate_counter").select("last_value").executeTakeFirstOrThrow();
    const taken = formatCertificate("NEW{00000}", Number(next.last_value) + 1);
    await server.services.auth.users.createMember({
      certificate: taken,
      birthdateDigest: server.services.auth.digestBirthdate("1960-01-01"),
    });
    const id = await insertApplication(db(), {
      applicant_name: "Skip Ahead",
      dob: "1961-01-01",
      email: "skip@example.com",
      status: "approved",
    });
    const body = await (await create(id)).json();
    expect(body.member.certificate).toBe(formatCertificate("NEW{00000}", Number(next.last_value) + 2));
  });

  it("refuses members and strangers, and unknown or malformed ids", async () => {
    const id = await insertApplication(db(), { status: "approved" });
    expect((await create(id, (await loginAs(server, "member")).cookie)).status).toBe(403);
    expect((await server.request(`/api/admin/applications/${id}/member`, { method: "POST" })).status).toBe(401);
    expect((await create(999_999)).status).toBe(404);
    expect((await server.request(`/api/admin/applications/abc/member`, { method: "POST", cookie: staff.cookie })).status).toBe(400);
    expect(await db().selectFrom("applications").select("member_user_id").where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
      member_user_id: null,
    });
  });
});
