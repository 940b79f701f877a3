import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SubmissionStore } from "~/features/submissions/store.server";
import { sql } from "kysely";
import {
  describeEachDatabase,
  loginAs,
  sessionCookieFrom,
  startSiblingServer,
  startTestServer,
  type TestServer,
} from "../../../tests/support/test-app";
import { pngDataUrl } from "../../../tests/support/png";
import { deleteSubmissions, insertApplication } from "../../../tests/support/submission-fixtures";
import { decodeBody, startSmtp } from "../../../tests/support/smtp";
import { MEMBERSHIP_MESSAGES } from "./contract";
import { localIsoDate } from "~/domain/people";
import { formatCertificate, splitName } from "./membership.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

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
  /** Staff's explicit choice: linkTo null makes a new member, a member's id links to that member. */
  const create = (id: number, linkTo: number | null = null, cookie = staff.cookie, on = server) =>
    on.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie, json: { linkTo } });
  const matchesOf = async (id: number, cookie = staff.cookie) => {
    const res = await server.request(`/api/admin/applications/${id}/member-matches`, { cookie });
    expect(res.status).toBe(200);
    return (await res.json()).matches;
  };
  const approve = (id: number) => new SubmissionStore(db(), server.services.database.dialect).setStatus("applications", id, "approved");
  /** The membership section of the submission's detail, as the inbox shows it. */
  const membershipShown = async (id: number) => {
    const res = await server.request(`/api/admin/submissions/application_${id}`, { cookie: staff.cookie });
    expect(res.status).toBe(200);
    return (await res.json()).submission.membership;
  };

  it("makes a member with a new number, the application's name and birthdate, linked both ways, welcomed once", async () => {
    const id = await insertApplication(server.services.database, {
      applicant_name: "Avery J. Newmember",
      dob: "1985-03-07",
      email: "avery.new@example.com",
    });
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
      role: "user",
      // The application's contact details (issue 30, 3.3).
      phone: "5551234567",
      address1: "12 Elm Street",
      address2: null,
      city: "Springfield",
      state: "IL",
      zip: "62701",
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

    // On 'My account' the new member sees the contact details and the application they came from.
    const account = await (await server.request("/api/account", { cookie: sessionCookieFrom(login) })).json();
    expect(account.contact).toEqual({
      email: "avery.new@example.com",
      phone: "5551234567",
      address1: "12 Elm Street",
      address2: null,
      city: "Springfield",
      state: "IL",
      zip: "62701",
    });
    expect(account.submissions).toEqual([expect.objectContaining({ ref: `application_${id}`, status: "approved" })]);

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
    expect(audit.map((a) => a.action)).toEqual([
      "membership.plan",
      "membership.co_insured",
      "applications.member_created",
      "applications.welcome_sent",
    ]);
    expect(JSON.parse(audit[2].details!)).toEqual({ application: `application_${id}` });
  });

  it("links an applicant to an existing member only when staff choose that member; the details and the address on record stay", async () => {
    const existing = await server.services.auth.users.createMember({
      certificate: "OLD-777",
      birthdateDigest: server.services.auth.digestBirthdate("1970-12-01"),
      firstName: "Pat",
      lastName: "Existing",
      email: "pat.on.record@example.com",
      phone: "2035550100",
    });
    const id = await insertApplication(server.services.database, {
      applicant_name: "pat existing",
      dob: "1970-12-01",
      email: "pat@example.com",
      status: "approved",
    });
    expect(await matchesOf(id)).toEqual([
      { id: existing.id, certificate: "OLD-777", name: "Pat Existing", active: true, email: "different", hasPlan: false },
    ]);
    // No choice, no link: the server refuses.
    const unchosen = await server.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie: staff.cookie });
    expect(unchosen.status).toBe(400);
    expect((await unchosen.json()).error).toBe(MEMBERSHIP_MESSAGES.choose);
    // A member who is not a match cannot be linked.
    const other = await server.services.auth.users.createMember({
      certificate: "OTHER-1",
      birthdateDigest: server.services.auth.digestBirthdate("1970-12-02"),
      firstName: "Pat",
      lastName: "Existing",
    });
    const wrong = await create(id, other.id);
    expect(wrong.status).toBe(409);
    expect((await wrong.json()).error).toBe(MEMBERSHIP_MESSAGES.notAMatch);
    expect(await membershipShown(id)).toEqual({ member: null, welcomeSentAt: null });

    const before = (await db().selectFrom("users").select("id").execute()).length;
    const res = await create(id, existing.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ created: false, member: { id: existing.id, certificate: "OLD-777" }, welcome: "sent" });
    expect((await db().selectFrom("users").select("id").execute()).length).toBe(before);
    const user = await db()
      .selectFrom("users")
      .select(["email", "phone", "address1"])
      .where("id", "=", existing.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ email: "pat.on.record@example.com", phone: "2035550100", address1: null });
    const link = await db().selectFrom("applications").select("member_user_id").where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(link.member_user_id)).toBe(existing.id);
    // The certificate number went to the address on record, never to the application's.
    const mails = smtp.received.filter((m) => m.to.includes("pat.on.record@example.com") || m.to.includes("pat@example.com"));
    expect(mails.map((m) => m.to)).toEqual([["pat.on.record@example.com"]]);
    const { welcome_sent_at } = await db()
      .selectFrom("applications")
      .select("welcome_sent_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await membershipShown(id)).toEqual({ member: { id: existing.id, certificate: "OLD-777" }, welcomeSentAt: welcome_sent_at });
  });

  it("a linked member without a plan gets the application's plan only when staff give it, having seen what it sets", async () => {
    const planOf = async (userId: number) =>
      (await (await server.request(`/api/admin/members/${userId}/membership`, { cookie: staff.cookie })).json()).plan;
    const lone = await server.services.auth.users.createMember({
      certificate: "LONE-1",
      birthdateDigest: server.services.auth.digestBirthdate("1958-03-03"),
      firstName: "Alice",
      lastName: "Lone",
    });
    const application = () =>
      insertApplication(server.services.database, {
        applicant_name: "Alice Lone",
        dob: "1958-03-03",
        email: "mallory@evil.example",
        amount_of_coverage: "250000",
        beneficiary_name: "Mallory Attacker",
        beneficiary_relationship: "other",
        status: "approved",
      });
    const first = await application();
    // What staff see before they choose: the member has no plan, and what the application's plan would set.
    const seen = await (await server.request(`/api/admin/applications/${first}/member-matches`, { cookie: staff.cookie })).json();
    expect(seen.matches).toEqual([expect.objectContaining({ id: lone.id, hasPlan: false })]);
    expect(seen.plan).toEqual({
      billing: "monthly",
      coverageCents: 25_000_000,
      beneficiaryName: "Mallory Attacker",
      beneficiaryRelationship: "other",
      approvedOn: server.services.coverage.today(),
      coInsuredName: "Casey Applicant",
    });
    // Not a boolean: refused, nothing linked.
    const bad = await server.request(`/api/admin/applications/${first}/member`, {
      method: "POST",
      cookie: staff.cookie,
      json: { linkTo: lone.id, givePlan: "yes" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(MEMBERSHIP_MESSAGES.givePlan);
    // Linked without givePlan: the plan is left alone (none).
    expect(await (await create(first, lone.id)).json()).toMatchObject({ created: false, planGiven: false });
    expect(await planOf(lone.id)).toBeNull();

    // A second application, linked with givePlan: the plan staff saw is given, and audited.
    const second = await application();
    const given = await server.request(`/api/admin/applications/${second}/member`, {
      method: "POST",
      cookie: staff.cookie,
      json: { linkTo: lone.id, givePlan: true },
    });
    expect(await given.json()).toMatchObject({ created: false, planGiven: true });
    expect(await planOf(lone.id)).toMatchObject({ billing: "monthly", coverageCents: 25_000_000, beneficiaryName: "Mallory Attacker" });
    const audit = await db().selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", lone.id).orderBy("id").execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.details!)])).toEqual([
      ["applications.member_linked", { application: `application_${first}`, planGiven: false }],
      ["membership.plan", { billing: "monthly", approvedOn: server.services.coverage.today(), application: `application_${second}` }],
      ["membership.co_insured", { change: "added", application: `application_${second}` }],
      ["applications.member_linked", { application: `application_${second}`, planGiven: true }],
    ]);

    // A member who has a plan keeps it, givePlan or not.
    const third = await application();
    await server.request(`/api/admin/members/${lone.id}/membership/plan`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { billing: "annual", approvedOn: "2025-01-02", coverageAmount: "1000" },
    });
    const matches = await matchesOf(third);
    expect(matches).toEqual([expect.objectContaining({ id: lone.id, hasPlan: true })]);
    const kept = await server.request(`/api/admin/applications/${third}/member`, {
      method: "POST",
      cookie: staff.cookie,
      json: { linkTo: lone.id, givePlan: true },
    });
    expect(await kept.json()).toMatchObject({ planGiven: false });
    expect(await planOf(lone.id)).toMatchObject({ billing: "annual", coverageCents: 100_000, beneficiaryName: null });
  });

  it("an application in a member's name by someone else: nothing goes to the applicant's address, no answer of theirs shows the certificate", async () => {
    const sent = smtp.received.length;
    const victim = await server.services.auth.users.createMember({
      certificate: "VICTIM-42",
      birthdateDigest: server.services.auth.digestBirthdate("1964-02-29"),
      firstName: "Robin",
      lastName: "Target",
    });
    // The attacker signs in with their own member account and applies in the victim's name.
    const attacker = await loginAs(server, "member");
    const posted = await server.request("/api/applications", {
      method: "POST",
      cookie: attacker.cookie,
      json: {
        amountOfCoverage: "100000",
        applicantName: "Robin Target",
        dob: "1964-02-29",
        gender: "Prefer not to say",
        email: "attacker@evil.example",
        phone: "(203) 555-0100",
        todaysDate: localIsoDate(),
        paymentMonthlyBilling: true,
        confirmAccuracy: true,
        applicantSignature: pngDataUrl(),
      },
    });
    expect(posted.status).toBe(201);
    const { id } = await posted.json();
    await approve(id);
    // Staff see the match and that the victim has no address on record before anything is sent.
    expect(await matchesOf(id)).toEqual([
      { id: victim.id, certificate: "VICTIM-42", name: "Robin Target", active: true, email: "missing", hasPlan: false },
    ]);
    expect(smtp.received.length).toBe(sent);
    // Staff link it (the worst choice): still no mail, to anyone.
    const res = await create(id, victim.id);
    expect(await res.json()).toMatchObject({ created: false, member: { id: victim.id }, welcome: "no-address", planGiven: false });
    // Nor does the link give the victim the applicant's plan (coverage, beneficiary): staff did not choose to.
    expect(await db().selectFrom("membership_plans").select("user_id").where("user_id", "=", victim.id).execute()).toEqual([]);
    expect(smtp.received.length).toBe(sent);
    expect(smtp.received.some((m) => m.to.includes("attacker@evil.example"))).toBe(false);
    // What the applicant can read: their account (the application and its status), who they are.
    for (const path of ["/api/account", "/api/auth/me"]) {
      const answer = await server.request(path, { cookie: attacker.cookie });
      expect(answer.status).toBe(200);
      expect(await answer.text()).not.toContain("VICTIM-42");
    }
    const account = await (await server.request("/api/account", { cookie: attacker.cookie })).json();
    expect(account.submissions).toEqual([expect.objectContaining({ ref: `application_${id}`, status: "approved" })]);
  });

  it("a new member by staff's choice, though a match exists: a new number to the application's address", async () => {
    const existing = await server.services.auth.users.createMember({
      certificate: "TWIN-1",
      birthdateDigest: server.services.auth.digestBirthdate("1991-07-07"),
      firstName: "Jo",
      lastName: "Twin",
      email: "jo.twin@example.com",
    });
    const id = await insertApplication(server.services.database, {
      applicant_name: "Jo Twin",
      dob: "1991-07-07",
      email: "jo.twin@example.com",
      status: "approved",
    });
    expect(await matchesOf(id)).toEqual([expect.objectContaining({ id: existing.id, email: "same" })]);
    const res = await create(id, null);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.member.certificate).toMatch(/^NEW\d{5}$/);
    expect(smtp.received.filter((m) => m.to.includes("jo.twin@example.com")).map((m) => decodeBody(m.raw))).toEqual([
      expect.stringContaining(`Your certificate number is ${body.member.certificate}.`),
    ]);
  });

  it("an application whose member is being made shows no member yet, and a second request makes none", async () => {
    const id = await insertApplication(server.services.database, { applicant_name: "Claimed Cleo", dob: "1990-01-02", status: "approved" });
    // What a staff member's claim writes before the member exists.
    await db().updateTable("applications").set({ member_claimed_at: new Date().toISOString() }).where("id", "=", id).execute();
    expect(await membershipShown(id)).toEqual({ member: null, welcomeSentAt: null });
    const users = (await db().selectFrom("users").select("id").execute()).length;
    const second = await create(id);
    expect(second.status).toBe(409);
    expect((await second.json()).error).toBe(MEMBERSHIP_MESSAGES.inProgress);
    expect((await db().selectFrom("users").select("id").execute()).length).toBe(users);
    // Neither the detail nor the legacy answer shows the claim.
    const detail = await (await server.request(`/api/admin/submissions/application_${id}`, { cookie: staff.cookie })).json();
    expect(detail.submission.fields.map((f: { key: string }) => f.key)).not.toContain("member_claimed_at");
  });

  it("deleting the member leaves the application, unlinked; deleting the application leaves the member", async () => {
    const id = await insertApplication(server.services.database, {
      applicant_name: "Gone Gail",
      dob: "1977-07-07",
      email: "gone.gail@example.com",
      status: "approved",
    });
    const made = (await (await create(id)).json()).member;
    await db().deleteFrom("users").where("id", "=", made.id).execute();
    const link = await db().selectFrom("applications").select("member_user_id").where("id", "=", id).executeTakeFirst();
    expect(link).toEqual({ member_user_id: null });
    expect(await membershipShown(id)).toMatchObject({ member: null });

    // Made again, then the application deleted: the member stays.
    const again = await create(id);
    expect(again.status).toBe(201);
    const member = (await again.json()).member;
    expect(member.id).not.toBe(made.id);
    await deleteSubmissions(server.services.database, "applications", [id]);
    expect(await db().selectFrom("users").select("certificate_number").where("id", "=", member.id).executeTakeFirst()).toEqual({
      certificate_number: member.certificate,
    });
  });

  it("two staff on two instances at once: one member, one number each time, numbers never shared", async () => {
    const sibling = await startSiblingServer(server);
    try {
      const ids = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          insertApplication(server.services.database, {
            applicant_name: `Race Person${i}`,
            dob: "1990-01-0" + i,
            email: `race${i}@example.com`,
            status: "approved",
          }),
        ),
      );
      // Each application asked twice at once, on both instances.
      const answers = await Promise.all(ids.flatMap((id) => [create(id), create(id, null, staff.cookie, sibling)]));
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201, 201, 201, 201]);
      for (let i = 0; i < ids.length; i++) expect(bodies[2 * i].member).toEqual(bodies[2 * i + 1].member);
      const certificates = bodies.filter((_, i) => i % 2 === 0).map((b) => b.member.certificate);
      expect(new Set(certificates).size).toBe(4);
      // One member each: every one made is linked, to its own application.
      const made = await db().selectFrom("users").select("id").where("first_name", "=", "Race").orderBy("id").execute();
      expect(made).toHaveLength(4);
      const links = await db()
        .selectFrom("applications")
        .select("member_user_id")
        .where("id", "in", ids)
        .orderBy("member_user_id")
        .execute();
      expect(links.map((l) => Number(l.member_user_id))).toEqual(made.map((u) => Number(u.id)));
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
    const id = await insertApplication(server.services.database, {
      applicant_name: "Skip Ahead",
      dob: "1961-01-01",
      email: "skip@example.com",
      status: "approved",
    });
    const body = await (await create(id)).json();
    expect(body.member.certificate).toBe(formatCertificate("NEW{00000}", Number(next.last_value) + 2));
  });

  it("a number another writer takes between the counter and the insert is skipped, on both databases", async () => {
    // The collision forced: a trigger inserts a member holding the next number just before the
    // new member's own insert of it (as a member import or a second site would). On PostgreSQL
    // the unique violation used to abort the transaction, and the next step failed with a 500.
    const next = await db().selectFrom("certificate_counter").select("last_value").executeTakeFirstOrThrow();
    const squatted = formatCertificate("NEW{00000}", Number(next.last_value) + 1);
    const now = new Date().toISOString();
    const squat = sql.raw(
      `insert into users (certificate_number, first_name, role, is_active, is_core_admin, created_at, updated_at) ` +
        `values (NEW.certificate_number, 'Squatter', 'user', 1, 0, '${now}', '${now}')`,
    );
    if (dialect === "sqlite") {
      await sql`create trigger squat before insert on users
        when NEW.certificate_number = ${sql.lit(squatted)} and NEW.first_name is not 'Squatter'
        begin ${squat}; end`.execute(db());
    } else {
      await sql`create function squat() returns trigger language plpgsql as $$ begin
        if NEW.certificate_number = ${sql.lit(squatted)} and NEW.first_name is distinct from 'Squatter' then ${squat}; end if;
        return NEW; end $$`.execute(db());
      await sql`create trigger squat before insert on users for each row execute function squat()`.execute(db());
    }
    try {
      const id = await insertApplication(server.services.database, {
        applicant_name: "Late Comer",
        dob: "1962-03-03",
        email: "late@example.com",
        status: "approved",
      });
      const res = await create(id);
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.member.certificate).toBe(formatCertificate("NEW{00000}", Number(next.last_value) + 2));
      const holders = await db().selectFrom("users").select(["first_name"]).where("certificate_number", "=", squatted).execute();
      expect(holders).toEqual([{ first_name: "Squatter" }]);
      expect(await membershipShown(id)).toMatchObject({ member: body.member });
    } finally {
      await sql`drop trigger squat${dialect === "postgres" ? sql` on users` : sql``}`.execute(db());
      if (dialect === "postgres") await sql`drop function squat()`.execute(db());
    }
  });

  it("refuses members and strangers, and unknown or malformed ids", async () => {
    const id = await insertApplication(server.services.database, { status: "approved" });
    const member = (await loginAs(server, "member")).cookie;
    expect((await create(id, null, member)).status).toBe(403);
    expect((await server.request(`/api/admin/applications/${id}/member`, { method: "POST", json: { linkTo: null } })).status).toBe(401);
    expect((await server.request(`/api/admin/applications/${id}/member-matches`, { cookie: member })).status).toBe(403);
    expect((await server.request(`/api/admin/applications/999999/member-matches`, { cookie: staff.cookie })).status).toBe(404);
    for (const body of [{}, { linkTo: "1" }, { linkTo: 0 }, { linkTo: 1.5 }, [], "new"])
      expect(
        (await server.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie: staff.cookie, json: body })).status,
      ).toBe(400);
    expect((await create(999_999)).status).toBe(404);
    expect((await server.request(`/api/admin/applications/abc/member`, { method: "POST", cookie: staff.cookie })).status).toBe(400);
    expect(await db().selectFrom("applications").select("member_user_id").where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
      member_user_id: null,
    });
  });
});
