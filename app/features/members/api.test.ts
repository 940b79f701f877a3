import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, sessionCookieFrom, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { guardRows, sessionKey } from "../../../tests/support/row-guard";
import { deleteSubmissions, insertApplication } from "../../../tests/support/submission-fixtures";
import { EXPORT_COLUMNS, MESSAGES, type MemberRow, type StaffRow } from "./contract";
import { AUDIT_ACTIONS, type AuditEntry } from "~/domain/audit";
import { StaffPermissions } from "~/features/auth/staff-permissions.server";
import type { PublicUser } from "~/features/auth/user";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Staff tests here confirm passwords (scrypt, on the thread pool) a dozen times: on a busy
// machine that takes longer than the default 20 s, so give them room.
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const BIRTHDATE = "1980-01-15";
const BIRTHDATE_TYPED = "011580";
const STAFF_PASSWORD = "correct horse battery";

describeEachDatabase("member administration API", (dialect) => {
  let server: TestServer;
  let member: { cookie: string; userId: number };
  let limited: { cookie: string; userId: number };
  let boss: { cookie: string; userId: number };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    member = await loginAs(server, "member");
    limited = await loginAs(server, "limited_admin", { username: "limited-one" });
    boss = await loginAs(server, "super_admin", { username: "boss" });
  });
  afterAll(() => server.close());

  const req = (path: string, init: Parameters<TestServer["request"]>[1] = {}) => server.request(path, init);
  const json = async (res: Response) => (await res.json()) as Record<string, any>;

  async function addMember(certificate: string, names: { first?: string; last?: string } = {}) {
    const { auth } = server.services;
    const { id } = await auth.users.createMember({
      certificate,
      birthdateDigest: auth.digestBirthdate(BIRTHDATE),
      firstName: names.first ?? null,
      lastName: names.last ?? null,
    });
    return id;
  }
  const memberLogin = (certificate: string) =>
    req("/api/auth/login", { method: "POST", json: { username: certificate, password: BIRTHDATE_TYPED } });
  const staffLogin = (username: string, password = STAFF_PASSWORD) =>
    req("/api/auth/login", { method: "POST", json: { username, password, kind: "staff" } });
  const whoIs = async (cookie: string) => (await json(await req("/api/auth/me", { cookie }))).user;

  async function auditEntries(query = ""): Promise<AuditEntry[]> {
    const res = await req(`/api/admin/audit?pageSize=100${query}`, { cookie: boss.cookie });
    expect(res.status).toBe(200);
    return (await json(res)).entries;
  }

  it("every answer that succeeds says so, in the shape of its contract", async () => {
    const id = await addMember("SHAPE-1", { first: "Sha", last: "Pe" });
    const ok = async (res: Response, status = 200) => {
      expect(res.status).toBe(status);
      const body = await json(res);
      expect(body.success).toBe(true);
      return body;
    };
    const members = await ok(await req("/api/admin/members?q=SHAPE-1", { cookie: limited.cookie }));
    expect(members.members.map((m: { certificate_number: string }) => m.certificate_number)).toEqual(["SHAPE-1"]);
    const exported = await req("/api/admin/members/export?q=SHAPE-1", { cookie: limited.cookie });
    expect(exported.headers.get("x-content-type-options")).toBe("nosniff");
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(
      (await ok(await req(`/api/admin/members/${id}`, { method: "PATCH", json: { is_active: false }, cookie: limited.cookie }))).member,
    ).toMatchObject({ id, is_active: false });
    expect(Object.keys(await ok(await req(`/api/admin/members/${id}`, { method: "DELETE", cookie: limited.cookie })))).toEqual(["success"]);

    expect((await ok(await req("/api/admin/staff", { cookie: boss.cookie }))).staff.length).toBeGreaterThan(0);
    const created = await ok(
      await req("/api/admin/staff", {
        method: "POST",
        json: { username: "shape-staff", role: "limited_admin", password: "a-long-password" },
        cookie: boss.cookie,
      }),
      201,
    );
    expect(created.staff).toMatchObject({ username: "shape-staff", role: "limited_admin" });
    const staffId = created.staff.id;
    expect(
      (await ok(await req(`/api/admin/staff/${staffId}`, { method: "PATCH", json: { role: "super_admin" }, cookie: boss.cookie }))).staff,
    ).toMatchObject({ id: staffId, role: "super_admin" });
    expect(
      Object.keys(
        await ok(
          await req(`/api/admin/staff/${staffId}/password`, {
            method: "POST",
            json: { password: "another-long-password" },
            cookie: boss.cookie,
          }),
        ),
      ),
    ).toEqual(["success"]);
    expect(Object.keys(await ok(await req(`/api/admin/staff/${staffId}`, { method: "DELETE", cookie: boss.cookie })))).toEqual(["success"]);
    expect((await ok(await req("/api/admin/audit?pageSize=10", { cookie: boss.cookie }))).entries.length).toBeGreaterThan(3);
  });

  it("filters by status, sorts by last then first name, and exports blank cells for missing names and sign-ins", async () => {
    const ids = {
      a: await addMember("STAT-A", { first: "Zoe", last: "Adams" }),
      b: await addMember("STAT-B", { first: "Amy", last: "Adams" }),
      c: await addMember("STAT-C"),
    };
    // Two applications linked to Zoe: her row names the lowest (applications.member_user_id, 0031).
    const database = server.services.database;
    const apps = [await insertApplication(database), await insertApplication(database)];
    await database.db.updateTable("applications").set({ member_user_id: ids.a }).where("id", "in", apps).execute();
    await req(`/api/admin/members/${ids.c}`, { method: "PATCH", json: { is_active: false }, cookie: limited.cookie });
    const list = async (query: string) =>
      (
        (await json(await req(`/api/admin/members?q=STAT-&${query}`, { cookie: limited.cookie }))).members as Array<Record<string, unknown>>
      ).map((m) => m.certificate_number);
    expect(await list("status=active&sort=certificate_number")).toEqual(["STAT-A", "STAT-B"]);
    expect(await list("status=inactive")).toEqual(["STAT-C"]);
    expect(await list("status=all&sort=name")).toEqual(["STAT-C", "STAT-B", "STAT-A"]);
    expect(await list("sort=name&dir=desc")).toEqual(["STAT-A", "STAT-B", "STAT-C"]);
    const rows = (await json(await req(`/api/admin/members?q=STAT-&sort=certificate_number`, { cookie: limited.cookie }))).members;
    expect(rows.map((m: Record<string, unknown>) => [m.application_id, m.first_name])).toEqual([
      [Math.min(...apps), "Zoe"],
      [null, "Amy"],
      [null, null],
    ]);

    const csv = await (await req("/api/admin/members/export?q=STAT-C", { cookie: limited.cookie })).text();
    expect(csv.split("\r\n")[1]).toMatch(/^STAT-C,,,,inactive,No plan on record,,,\d{4}-/);

    // Activating an active member leaves their sessions alone; the audit names the member.
    const signedIn = sessionCookieFrom(await memberLogin("STAT-A"));
    const patched = await json(
      await req(`/api/admin/members/${ids.a}`, { method: "PATCH", json: { is_active: true }, cookie: limited.cookie }),
    );
    expect(patched.member.application_id).toBe(Math.min(...apps));
    expect((await whoIs(signedIn))?.certificate_number).toBe("STAT-A");
    const [entry] = await auditEntries("&action=members.activate");
    expect(entry).toMatchObject({ target_type: "member", target_id: ids.a, target_label: "STAT-A" });
    await req(`/api/admin/members/${ids.b}`, { method: "DELETE", cookie: limited.cookie });
    expect((await auditEntries("&action=members.delete"))[0]).toMatchObject({
      target_type: "member",
      target_id: ids.b,
      target_label: "STAT-B",
    });
    // Deleting Zoe leaves her applications, unlinked (set null, never cascade).
    await req(`/api/admin/members/${ids.a}`, { method: "DELETE", cookie: limited.cookie });
    const left = await database.db
      .selectFrom("applications")
      .select(["id", "member_user_id"])
      .where("id", "in", apps)
      .orderBy("id")
      .execute();
    expect(left.map((a) => [Number(a.id), a.member_user_id])).toEqual(apps.map((id) => [id, null]));
    await deleteSubmissions(database, "applications", apps);
  });

  it("lists staff without certificate numbers, and audits staff changes against the staff account", async () => {
    const staff = (await json(await req("/api/admin/staff", { cookie: boss.cookie }))).staff as Array<Record<string, unknown>>;
    expect(staff.find((s) => s.username === "boss")).toMatchObject({ role: "super_admin", is_active: true, is_core_admin: false });
    const created = (
      await json(
        await req("/api/admin/staff", {
          method: "POST",
          json: { username: "Audit-Target", role: "limited_admin", password: "a-long-password" },
          cookie: boss.cookie,
        }),
      )
    ).staff;
    expect(created.username).toBe("audit-target");
    await req(`/api/admin/staff/${created.id}/password`, {
      method: "POST",
      json: { password: "another-long-password" },
      cookie: boss.cookie,
    });
    await req(`/api/admin/staff/${created.id}`, { method: "PATCH", json: { role: "super_admin" }, cookie: boss.cookie });
    await req(`/api/admin/staff/${created.id}`, { method: "DELETE", cookie: boss.cookie });
    for (const action of ["staff.create", "staff.password_reset", "staff.role_change", "staff.delete"])
      expect((await auditEntries(`&action=${action}`))[0], action).toMatchObject({
        target_type: "staff",
        target_id: created.id,
        target_label: "audit-target",
      });
  });

  describe("who may call what", () => {
    const memberEndpoints: Array<[string, string, unknown?]> = [
      ["GET", "/api/admin/members"],
      ["GET", "/api/admin/members/export"],
      ["PATCH", "/api/admin/members/1", { is_active: false }],
      ["PUT", "/api/admin/members/1", { first_name: "Mallory" }],
      ["DELETE", "/api/admin/members/1"],
    ];
    const superEndpoints: Array<[string, string, unknown?]> = [
      ["GET", "/api/admin/staff"],
      ["POST", "/api/admin/staff", { username: "x-user", role: "limited_admin", password: "a-long-password" }],
      ["PATCH", "/api/admin/staff/1", { role: "limited_admin" }],
      ["POST", "/api/admin/staff/1/password", { password: "a-long-password" }],
      ["PUT", "/api/admin/staff/1/settings", { email: "x@example.com", announcements: true }],
      ["DELETE", "/api/admin/staff/1"],
      ["GET", "/api/admin/audit"],
    ];

    it("anonymous callers get 401 everywhere", async () => {
      for (const [method, path, body] of [...memberEndpoints, ...superEndpoints]) {
        const res = await req(path, { method, json: body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect((await json(res)).success).toBe(false);
      }
    });

    it("members get 403 everywhere", async () => {
      for (const [method, path, body] of [...memberEndpoints, ...superEndpoints]) {
        const res = await req(path, { method, json: body, cookie: member.cookie });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    });

    it("limited admins may manage members but get 403 on staff accounts and the audit log", async () => {
      expect((await req("/api/admin/members", { cookie: limited.cookie })).status).toBe(200);
      for (const [method, path, body] of superEndpoints) {
        const res = await req(path, { method, json: body, cookie: limited.cookie });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
      // Nothing was changed by the refused calls.
      expect(await server.services.auth.users.findStaffByUsername("x-user")).toBeUndefined();
    });

    it("refuses state changes from another site", async () => {
      const id = await addMember("XSITE-1");
      const res = await req(`/api/admin/members/${id}`, {
        method: "DELETE",
        cookie: boss.cookie,
        headers: { "Sec-Fetch-Site": "cross-site" },
      });
      expect(res.status).toBe(403);
      expect(await server.services.auth.users.findById(id)).toBeDefined();
    });
  });

  describe("member list", () => {
    beforeAll(async () => {
      for (let i = 1; i <= 30; i++) {
        await addMember(`LIST-${String(i).padStart(3, "0")}`, { first: i % 2 ? "Odd" : "Even", last: `Family${i}` });
      }
      await addMember("WILD%_1", { first: "Per%cent", last: "Under_score" });
      await addMember("NAMED-1", { first: "Marisol", last: "Quintero" });
    });

    const list = async (query: string, cookie = limited.cookie) => {
      const res = await req(`/api/admin/members?${query}`, { cookie });
      expect(res.status, query).toBe(200);
      return (await json(res)) as {
        members: MemberRow[];
        pagination: { page: number; pageSize: number; total: number; totalPages: number };
      };
    };

    it("pages on the server and never sends birthdates or digests", async () => {
      const first = await list("q=LIST-&pageSize=10");
      expect(first.pagination).toEqual({ page: 1, pageSize: 10, total: 30, totalPages: 3 });
      expect(first.members.map((m) => m.certificate_number)).toEqual(
        Array.from({ length: 10 }, (_, i) => `LIST-${String(i + 1).padStart(3, "0")}`),
      );
      const third = await list("q=LIST-&pageSize=10&page=3");
      expect(third.members[0].certificate_number).toBe("LIST-021");
      expect(third.members).toHaveLength(10);
      const beyond = await list("q=LIST-&pageSize=10&page=9");
      expect(beyond.members).toEqual([]);
      expect(Object.keys(first.members[0]).sort()).toEqual(
        [
          "certificate_number",
          "created_at",
          "first_name",
          "id",
          "is_active",
          "last_login_at",
          "last_name",
          "email",
          "phone",
          "address1",
          "address2",
          "city",
          "state",
          "zip",
          "application_id",
          "coverage",
        ].sort(),
      );
      expect(JSON.stringify(first)).not.toMatch(/digest|1980|011580/);
    });

    it("searches certificate numbers and names, case-insensitively, taking % and _ literally", async () => {
      expect((await list("q=list-007")).members.map((m) => m.certificate_number)).toEqual(["LIST-007"]);
      expect((await list("q=marisol quin")).members.map((m) => m.certificate_number)).toEqual(["NAMED-1"]);
      expect((await list("q=QUINTERO MARI")).members.map((m) => m.certificate_number)).toEqual(["NAMED-1"]);
      expect((await list("q=%25")).members.map((m) => m.certificate_number)).toEqual(["WILD%_1"]);
      expect((await list("q=per_cent")).members).toEqual([]);
      expect((await list("q=r_s")).members.map((m) => m.certificate_number)).toEqual(["WILD%_1"]);
      expect((await list("q=Odd&pageSize=100")).pagination.total).toBe(15);
    });

    it("sorts by a whitelisted column and lists no staff", async () => {
      const desc = await list("q=LIST-&sort=certificate_number&dir=desc&pageSize=10");
      expect(desc.members[0].certificate_number).toBe("LIST-030");
      const all = await list("pageSize=100");
      expect(all.members.every((m) => m.certificate_number !== "")).toBe(true);
    });

    it("answers bad queries with 400 and a reason", async () => {
      for (const query of [
        "page=abc",
        "page=0",
        "pageSize=7",
        "status=deleted",
        "sort=birthdate_digest",
        "dir=sideways",
        "q=a%00b",
        `q=${"x".repeat(101)}`,
        "page=1&page=2",
      ]) {
        const res = await req(`/api/admin/members?${query}`, { cookie: limited.cookie });
        expect(res.status, query).toBe(400);
        const body = await json(res);
        expect(body.success).toBe(false);
        expect(typeof body.error).toBe("string");
      }
      expect((await json(await req("/api/admin/members?q=a%01", { cookie: limited.cookie }))).error).toBe(MESSAGES.badCharacters);
    });

    it("records the last sign-in at login", async () => {
      const id = await addMember("SEEN-1");
      const before = (await list("q=SEEN-1")).members[0];
      expect(before.last_login_at).toBeNull();
      expect((await memberLogin("SEEN-1")).status).toBe(200);
      const after = (await list("q=SEEN-1")).members[0];
      expect(after.id).toBe(id);
      expect(Date.now() - Date.parse(after.last_login_at!)).toBeLessThan(60_000);
      const staff = (await json(await req("/api/admin/staff", { cookie: boss.cookie }))).staff as StaffRow[];
      expect(staff.find((s) => s.username === "boss")!.last_login_at).not.toBeNull();
    });
  });

  describe("activation", () => {
    it("deactivating ends the member's sessions at once and blocks sign-in; activating lets them back in", async () => {
      const id = await addMember("DEACT-1", { first: "Dee" });
      const session = sessionCookieFrom(await memberLogin("DEACT-1"));
      const second = sessionCookieFrom(await memberLogin("DEACT-1"));
      expect((await whoIs(session)).id).toBe(id);

      const res = await req(`/api/admin/members/${id}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: false } });
      expect(res.status).toBe(200);
      expect((await json(res)).member).toMatchObject({ id, certificate_number: "DEACT-1", is_active: false });
      const rows = await server.services.database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", id).execute();
      expect(rows).toEqual([]);
      expect(await whoIs(session)).toBeNull();
      expect(await whoIs(second)).toBeNull();
      const refused = await memberLogin("DEACT-1");
      // The answer a wrong birthdate gets (issue 39): the right one cannot be confirmed.
      expect(refused.status).toBe(401);
      expect((await json(refused)).error).toBe("Invalid certificate number or birthdate");
      const inactive = await json(await req("/api/admin/members?status=inactive&q=DEACT-1", { cookie: limited.cookie }));
      expect(inactive.members.map((m: MemberRow) => m.id)).toEqual([id]);

      expect((await req(`/api/admin/members/${id}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: true } })).status).toBe(
        200,
      );
      expect((await memberLogin("DEACT-1")).status).toBe(200);

      const entries = await auditEntries("&action=members.deactivate");
      expect(entries[0]).toMatchObject({
        actor_id: limited.userId,
        actor_label: "limited-one",
        target_type: "member",
        target_id: id,
        target_label: "DEACT-1",
      });
      expect((await auditEntries("&action=members.activate"))[0]).toMatchObject({ target_id: id });
    });

    it("touches members only: a staff account, a missing id and bad bodies are refused", async () => {
      const bossRes = await req(`/api/admin/members/${boss.userId}`, {
        method: "PATCH",
        cookie: limited.cookie,
        json: { is_active: false },
      });
      expect(bossRes.status).toBe(404);
      expect((await json(bossRes)).error).toBe(MESSAGES.memberNotFound);
      expect(await whoIs(boss.cookie)).not.toBeNull();
      expect((await req(`/api/admin/members/999999`, { method: "PATCH", cookie: limited.cookie, json: { is_active: false } })).status).toBe(
        404,
      );
      const id = await addMember("BADBODY-1");
      for (const body of [{}, { is_active: "false" }, { is_active: 0 }, { is_active: false, role: "super_admin" }, []]) {
        const res = await req(`/api/admin/members/${id}`, { method: "PATCH", cookie: limited.cookie, json: body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const raw = await req(`/api/admin/members/${id}`, {
        method: "PATCH",
        cookie: limited.cookie,
        headers: { "Content-Type": "application/json" },
        body: "{nope",
      });
      expect(raw.status).toBe(400);
      for (const badId of ["0", "-1", "1e3", "abc", "0x10", "12345678901"]) {
        expect((await req(`/api/admin/members/${badId}`, { method: "DELETE", cookie: limited.cookie })).status, badId).toBe(400);
      }
    });
  });

  describe("deletion", () => {
    it("deletes a member, ends their sessions, and writes the audit entry", async () => {
      const id = await addMember("DEL-1");
      const session = sessionCookieFrom(await memberLogin("DEL-1"));
      const res = await req(`/api/admin/members/${id}`, { method: "DELETE", cookie: limited.cookie });
      expect(res.status).toBe(200);
      expect(await server.services.auth.users.findById(id)).toBeUndefined();
      expect(await whoIs(session)).toBeNull();
      expect((await memberLogin("DEL-1")).status).toBe(401);
      expect((await req(`/api/admin/members/${id}`, { method: "DELETE", cookie: limited.cookie })).status).toBe(404);
      expect((await auditEntries("&action=members.delete"))[0]).toMatchObject({
        actor_id: limited.userId,
        target_id: id,
        target_label: "DEL-1",
      });
    });

    it("cannot delete a staff account through the member endpoint", async () => {
      const res = await req(`/api/admin/members/${limited.userId}`, { method: "DELETE", cookie: boss.cookie });
      expect(res.status).toBe(404);
      expect(await server.services.auth.users.findById(limited.userId)).toBeDefined();
    });
  });

  describe("export", () => {
    it("downloads the filtered list as CSV without birthdates or digests, formulas neutralised, and audits it", async () => {
      await addMember("EXP-001", { first: "Ada", last: "Lovelace" });
      const inactiveId = await addMember("EXP-002", { first: '=HYPERLINK("http://evil")', last: "O'Brien, Jr." });
      await server.services.memberAdmin.setMemberActive({ id: boss.userId }, inactiveId, false);
      await addMember("OTHER-9", { first: "Not", last: "Exported" });

      const res = await req("/api/admin/members/export?q=EXP-", { cookie: limited.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/);
      const text = await res.text();
      expect(text).not.toMatch(/digest|1980|011580/);
      const parsed = Papa.parse<string[]>(text.trim());
      expect(parsed.data[0]).toEqual([...EXPORT_COLUMNS]);
      expect(parsed.data.slice(1).map((r) => r.slice(0, 5))).toEqual([
        ["EXP-001", "Ada", "Lovelace", "", "active"],
        ["EXP-002", '\'=HYPERLINK("http://evil")', "O'Brien, Jr.", "", "inactive"],
      ]);
      const digest = (await server.services.auth.users.findById(inactiveId))!.birthdate_digest!;
      expect(text).not.toContain(digest);

      const onlyInactive = await (await req("/api/admin/members/export?q=EXP-&status=inactive", { cookie: limited.cookie })).text();
      expect(
        Papa.parse<string[]>(onlyInactive.trim())
          .data.slice(1)
          .map((r) => r[0]),
      ).toEqual(["EXP-002"]);

      const [latest, previous] = await auditEntries("&action=members.export");
      expect(latest).toMatchObject({ actor_id: limited.userId, row_count: 1, details: { q: "EXP-", status: "inactive" } });
      expect(previous).toMatchObject({ row_count: 2, details: { q: "EXP-", status: "all" } });
    });

    it("carries each member's phone, address, plan and coverage amount, formulas in them neutralised too", async () => {
      const planned = await addMember("EXPC-1", { first: "Pat", last: "Plan" });
      const bare = await addMember("EXPC-2", { first: "No", last: "Plan" });
      await server.services.database.db
        .updateTable("users")
        .set({ phone: "(203) 555-0142", address1: "=cmd|' /C calc'!A0", address2: "-2+3", city: "+Stamford", state: "CT", zip: "@06901" })
        .where("id", "=", planned)
        .execute();
      await server.services.coverage.setPlan({ id: boss.userId }, planned, {
        billing: "annual",
        coverageAmount: 25_000_050,
        beneficiaryName: null,
        beneficiaryRelationship: null,
        approvedOn: server.services.coverage.today(),
      });
      const text = await (await req("/api/admin/members/export?q=EXPC-", { cookie: limited.cookie })).text();
      const [header, ...rows] = Papa.parse<string[]>(text.trim()).data;
      const at = (row: string[]) => Object.fromEntries(header.map((name, i) => [name, row[i]]));
      expect(header.slice(-8)).toEqual(["phone", "address1", "address2", "city", "state", "zip", "plan", "coverage_amount"]);
      expect(rows.map(at)).toEqual([
        expect.objectContaining({
          certificate_number: "EXPC-1",
          phone: "(203) 555-0142",
          address1: "'=cmd|' /C calc'!A0",
          address2: "'-2+3",
          city: "'+Stamford",
          state: "CT",
          zip: "'@06901",
          plan: "annual",
          coverage_amount: "250000.50",
        }),
        expect.objectContaining({ certificate_number: "EXPC-2", phone: "", address1: "", city: "", plan: "", coverage_amount: "" }),
      ]);
      // Only the members the search matches: another member's plan is not read into the file.
      expect(rows).toHaveLength(2);
      expect(bare).toBeGreaterThan(planned);
    });

    it("rejects a bad export query before reading anything", async () => {
      const res = await req("/api/admin/members/export?status=everyone", { cookie: limited.cookie });
      expect(res.status).toBe(400);
    });
  });

  describe("editing", () => {
    const edit = (id: number, body: unknown, cookie = limited.cookie) =>
      req(`/api/admin/members/${id}`, { method: "PUT", json: body, cookie });
    const full = {
      first_name: " Grace ",
      last_name: "Hopper",
      email: "grace.hopper@example.com",
      phone: "(555) 123-4567",
      address1: "1 Navy Way",
      address2: "",
      city: "Arlington",
      state: "va",
      zip: "22201",
    };

    it("saves the name and contact details, and audits the names of the fields that changed", async () => {
      const id = await addMember("EDIT-1", { first: "Grace", last: "Brewster" });
      const res = await edit(id, full);
      expect(res.status).toBe(200);
      const { member: saved } = await json(res);
      expect(saved).toMatchObject({
        id,
        certificate_number: "EDIT-1",
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace.hopper@example.com",
        address2: null,
        state: "VA",
        is_active: true,
      });
      const [entry] = await auditEntries("&action=members.update");
      expect(entry).toMatchObject({
        actor_id: limited.userId,
        target_type: "member",
        target_id: id,
        target_label: "EDIT-1",
        details: { fields: ["last_name", "email", "phone", "address1", "city", "state", "zip"] },
      });
      expect(JSON.stringify(entry)).not.toMatch(/Hopper|grace\.hopper|22201/);

      // The same values again change nothing and write no entry.
      expect((await edit(id, full)).status).toBe(200);
      expect((await auditEntries("&action=members.update")).filter((e) => e.target_id === id)).toHaveLength(1);
      // Blank clears.
      expect((await json(await edit(id, { ...full, phone: " " }))).member.phone).toBeNull();
      expect((await auditEntries("&action=members.update"))[0].details).toEqual({ fields: ["phone"] });
    });

    it("a new birthdate replaces the digest (never shown, never logged), ends the member's sessions, and blank keeps it", async () => {
      const id = await addMember("EDIT-BD", { first: "Bea", last: "Date" });
      const session = sessionCookieFrom(await memberLogin("EDIT-BD"));
      const digestOf = async () => (await server.services.auth.users.findById(id))!.birthdate_digest;
      const before = await digestOf();

      const kept = await edit(id, { first_name: "Bea", last_name: "Date", birthdate: "" });
      expect(kept.status).toBe(200);
      expect(await digestOf()).toBe(before);
      expect(await whoIs(session)).not.toBeNull();

      const res = await edit(id, { first_name: "Bea", last_name: "Date", birthdate: "03/09/1975" });
      expect(res.status).toBe(200);
      const text = JSON.stringify(await json(res));
      expect(text).not.toMatch(/birthdate|digest|1975|030975/);
      expect(await digestOf()).toBe(server.services.auth.digestBirthdate("1975-03-09"));
      expect(await whoIs(session)).toBeNull();
      expect((await memberLogin("EDIT-BD")).status).toBe(401);
      expect((await req("/api/auth/login", { method: "POST", json: { username: "EDIT-BD", password: "030975" } })).status).toBe(200);

      // The same birthdate again is still "set": the log never tells whether a guess matched.
      expect((await edit(id, { first_name: "Bea", last_name: "Date", birthdate: "1975-03-09" })).status).toBe(200);
      const entries = (await auditEntries("&action=members.update")).filter((e) => e.target_id === id);
      expect(entries.map((e) => e.details)).toEqual([{ fields: ["birthdate"] }, { fields: ["birthdate"] }]);
      expect(JSON.stringify(entries)).not.toMatch(/1975|030975|03\/09/);
    });

    it("refuses bad values with the field's message, unknown fields, staff accounts and missing members, changing nothing", async () => {
      const id = await addMember("EDIT-BAD", { first: "Bad", last: "Input" });
      const expect400 = async (body: unknown, message: RegExp) => {
        const res = await edit(id, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const answer = await json(res);
        expect(answer.success).toBe(false);
        expect(JSON.stringify(answer)).toMatch(message);
      };
      await expect400({ email: "not-an-address" }, /Enter an e-mail address like name@example.com\./);
      await expect400({ birthdate: "1980-02-30" }, new RegExp(MESSAGES.badBirthdate));
      await expect400({ birthdate: "2999-01-01" }, new RegExp(MESSAGES.futureBirthdate));
      await expect400({ birthdate: "15/01/1980" }, new RegExp(MESSAGES.badBirthdate));
      await expect400({ first_name: "x".repeat(101) }, /First name must be at most 100 characters/);
      await expect400({ last_name: "Line\nbreak" }, /Last name contains characters that are not allowed/);
      await expect400({ first_name: 42 }, /First name must be text/);
      // Names are names (issue 39).
      await expect400(
        { first_name: "Pay now at http://evil.example/pay - urgent" },
        /First name must be a name, not a web or e-mail address\./,
      );
      await expect400({ last_name: "pay@evil.example" }, /Last name must be a name, not a web or e-mail address\./);
      // Only the edit's own fields: no role, activation, certificate number or digest through here.
      for (const extra of [{ role: "super_admin" }, { is_active: false }, { certificate_number: "X" }, { birthdate_digest: "00" }])
        expect((await edit(id, { first_name: "Bad", ...extra })).status, JSON.stringify(extra)).toBe(400);
      expect(
        (
          await req(`/api/admin/members/${id}`, {
            method: "PUT",
            body: "[1,2",
            cookie: limited.cookie,
            headers: { "Content-Type": "application/json" },
          })
        ).status,
      ).toBe(400);
      expect((await edit(boss.userId, { first_name: "Boss" })).status).toBe(404);
      expect((await edit(999_999_999, { first_name: "Ghost" })).status).toBe(404);
      expect((await req("/api/admin/members/1e3", { method: "PUT", json: {}, cookie: limited.cookie })).status).toBe(400);
      const row = await server.services.auth.users.findById(id);
      expect(row).toMatchObject({ first_name: "Bad", last_name: "Input", role: "user", is_active: 1, email: null });
      expect(await server.services.auth.users.findById(boss.userId)).toMatchObject({ first_name: null, role: "super_admin" });
    });

    it("changes that member's row only (and their sessions only when the birthdate is set)", async () => {
      const near = await addMember("EDIT-NEAR", { first: "Near" });
      const nearSession = sessionCookieFrom(await memberLogin("EDIT-NEAR"));
      const id = await addMember("EDIT-ROW", { first: "Row" });
      const session = sessionCookieFrom(await memberLogin("EDIT-ROW"));
      const db = server.services.database.db;
      let guard = await guardRows(db, ["users", "sessions", "audit_log"]);
      expect((await edit(id, { first_name: "Rowena", email: "rowena@example.com" })).status).toBe(200);
      await guard.expectChanges({
        users: { changed: [id], columns: ["first_name", "email", "updated_at"] },
        sessions: { mayChange: [sessionKey(limited.cookie), sessionKey(session), sessionKey(nearSession)] },
        audit_log: { added: 1 },
      });
      guard = await guardRows(db, ["users", "sessions", "audit_log"]);
      expect((await edit(id, { first_name: "Rowena", email: "rowena@example.com", birthdate: "2001-12-31" })).status).toBe(200);
      await guard.expectChanges({
        users: { changed: [id], columns: ["birthdate_digest", "updated_at"] },
        sessions: { removed: [sessionKey(session)], mayChange: [sessionKey(limited.cookie), sessionKey(nearSession)] },
        audit_log: { added: 1 },
      });
      expect(await whoIs(nearSession)).not.toBeNull();
      expect(near).toBeGreaterThan(0);
    });

    it("search finds members by e-mail, and the export carries the e-mail column", async () => {
      const id = await addMember("MAIL-1", { first: "Em", last: "Ail" });
      await addMember("MAIL-2", { first: "No", last: "Mail" });
      await edit(id, { first_name: "Em", last_name: "Ail", email: "Unique.Person_1@Example.org" });
      const found = async (q: string) =>
        ((await json(await req(`/api/admin/members?q=${encodeURIComponent(q)}`, { cookie: limited.cookie }))).members as MemberRow[]).map(
          (m) => m.certificate_number,
        );
      expect(await found("unique.person_1@example")).toEqual(["MAIL-1"]);
      expect(await found("EXAMPLE.ORG")).toEqual(["MAIL-1"]);
      // "_" and "%" are matched as themselves.
      expect(await found("person%1")).toEqual([]);
      const csv = await (await req("/api/admin/members/export?q=unique.person", { cookie: limited.cookie })).text();
      const rows = Papa.parse<string[]>(csv.trim()).data;
      expect(rows[0]).toEqual([...EXPORT_COLUMNS]);
      expect(rows[0][3]).toBe("email");
      expect(rows.slice(1).map((r) => [r[0], r[3]])).toEqual([["MAIL-1", "Unique.Person_1@Example.org"]]);
    });
  });

  describe("staff accounts", () => {
    it("lists staff only, never password hashes", async () => {
      const res = await req("/api/admin/staff", { cookie: boss.cookie });
      const body = await json(res);
      expect(body.staff.map((s: StaffRow) => s.username)).toEqual(expect.arrayContaining(["boss", "limited-one"]));
      expect(JSON.stringify(body)).not.toMatch(/scrypt|password/);
      expect(body.staff.every((s: StaffRow) => s.role === "limited_admin" || s.role === "super_admin")).toBe(true);
    });

    it("adds an account that can sign in; checks password length, username and role; refuses a taken name", async () => {
      const res = await req("/api/admin/staff", {
        method: "POST",
        cookie: boss.cookie,
        json: { username: "New.Helper", role: "limited_admin", password: "twelve-chars" },
      });
      expect(res.status).toBe(201);
      const created = (await json(res)).staff as StaffRow;
      expect(created).toMatchObject({ username: "new.helper", role: "limited_admin", is_core_admin: false, is_active: true });
      expect((await staffLogin("new.helper", "twelve-chars")).status).toBe(200);

      const short = await req("/api/admin/staff", {
        method: "POST",
        cookie: boss.cookie,
        json: { username: "shorty", role: "limited_admin", password: "eleven-char" },
      });
      expect(short.status).toBe(400);
      expect((await json(short)).error).toBe(MESSAGES.passwordTooShort);
      for (const body of [
        { username: "a", role: "limited_admin", password: "twelve-chars" },
        { username: "has space", role: "limited_admin", password: "twelve-chars" },
        { username: "ctl\u0007x", role: "limited_admin", password: "twelve-chars" },
        { username: "member-ish", role: "user", password: "twelve-chars" },
        { username: "extra", role: "limited_admin", password: "twelve-chars", is_core_admin: true },
      ]) {
        expect((await req("/api/admin/staff", { method: "POST", cookie: boss.cookie, json: body })).status, JSON.stringify(body)).toBe(400);
      }
      const taken = await req("/api/admin/staff", {
        method: "POST",
        cookie: boss.cookie,
        json: { username: "NEW.helper", role: "super_admin", password: "twelve-chars" },
      });
      expect(taken.status).toBe(409);
      expect((await json(taken)).error).toBe(MESSAGES.usernameTaken);

      const entry = (await auditEntries("&action=staff.create"))[0];
      expect(entry).toMatchObject({
        actor_id: boss.userId,
        actor_label: "boss",
        target_id: created.id,
        target_label: "new.helper",
        details: { role: "limited_admin" },
      });
      expect(JSON.stringify(await auditEntries())).not.toContain("twelve-chars");
    });

    it("resets a password: the person's sessions end, the old password stops working, the new one works", async () => {
      const target = await loginAs(server, "limited_admin", { username: "rotating" });
      const other = sessionCookieFrom(await staffLogin("rotating"));
      const res = await req(`/api/admin/staff/${target.userId}/password`, {
        method: "POST",
        cookie: boss.cookie,
        json: { password: "brand-new-password" },
      });
      expect(res.status).toBe(200);
      expect(await whoIs(target.cookie)).toBeNull();
      expect(await whoIs(other)).toBeNull();
      expect((await staffLogin("rotating")).status).toBe(401);
      expect((await staffLogin("rotating", "brand-new-password")).status).toBe(200);
      expect(
        (await req(`/api/admin/staff/${target.userId}/password`, { method: "POST", cookie: boss.cookie, json: { password: "short" } }))
          .status,
      ).toBe(400);
      expect(
        (
          await req(`/api/admin/staff/${member.userId}/password`, {
            method: "POST",
            cookie: boss.cookie,
            json: { password: "brand-new-password" },
          })
        ).status,
      ).toBe(404);
      expect((await auditEntries("&action=staff.password_reset"))[0]).toMatchObject({ target_id: target.userId, target_label: "rotating" });
    });

    it("resetting your own password ends your other sessions but keeps the one you act from", async () => {
      const me = await loginAs(server, "super_admin", { username: "self-reset" });
      const elsewhere = sessionCookieFrom(await staffLogin("self-reset"));
      const res = await req(`/api/admin/staff/${me.userId}/password`, {
        method: "POST",
        cookie: me.cookie,
        json: { password: "my-new-password" },
      });
      expect(res.status).toBe(200);
      expect((await whoIs(me.cookie)).id).toBe(me.userId);
      expect(await whoIs(elsewhere)).toBeNull();
    });

    it("changes roles, takes effect on the next request, and audits from and to", async () => {
      const target = await loginAs(server, "limited_admin", { username: "promoted" });
      expect((await req("/api/admin/staff", { cookie: target.cookie })).status).toBe(403);
      const res = await req(`/api/admin/staff/${target.userId}`, { method: "PATCH", cookie: boss.cookie, json: { role: "super_admin" } });
      expect(res.status).toBe(200);
      expect((await json(res)).staff.role).toBe("super_admin");
      expect((await req("/api/admin/staff", { cookie: target.cookie })).status).toBe(200);
      expect((await auditEntries("&action=staff.role_change"))[0]).toMatchObject({
        target_id: target.userId,
        details: { from: "limited_admin", to: "super_admin" },
      });
      const back = await req(`/api/admin/staff/${target.userId}`, {
        method: "PATCH",
        cookie: boss.cookie,
        json: { role: "limited_admin" },
      });
      expect(back.status).toBe(200);
      expect((await req("/api/admin/staff", { cookie: target.cookie })).status).toBe(403);
      expect(
        (await req(`/api/admin/staff/${member.userId}`, { method: "PATCH", cookie: boss.cookie, json: { role: "super_admin" } })).status,
      ).toBe(404);
      expect((await server.services.auth.users.findById(member.userId))!.role).toBe("user");
    });

    it("removes an account and ends its sessions", async () => {
      const target = await loginAs(server, "limited_admin", { username: "leaving" });
      const res = await req(`/api/admin/staff/${target.userId}`, { method: "DELETE", cookie: boss.cookie });
      expect(res.status).toBe(200);
      expect(await whoIs(target.cookie)).toBeNull();
      expect((await staffLogin("leaving")).status).toBe(401);
      expect((await auditEntries("&action=staff.delete"))[0]).toMatchObject({
        target_id: target.userId,
        target_label: "leaving",
        details: { role: "limited_admin" },
      });
      expect((await req(`/api/admin/staff/${target.userId}`, { method: "DELETE", cookie: boss.cookie })).status).toBe(404);
    });

    it("a core admin can be neither demoted nor removed", async () => {
      const { id } = await server.services.auth.createStaff("core-admin", STAFF_PASSWORD, "super_admin", true);
      for (const [method, body] of [
        ["PATCH", { role: "limited_admin" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await req(`/api/admin/staff/${id}`, { method, cookie: boss.cookie, json: body });
        expect(res.status, method).toBe(409);
        expect((await json(res)).error).toBe(MESSAGES.coreAdmin);
      }
      expect((await server.services.auth.users.findById(id))!.role).toBe("super_admin");
    });

    it("nobody demotes or removes themselves", async () => {
      for (const [method, body] of [
        ["PATCH", { role: "limited_admin" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await req(`/api/admin/staff/${boss.userId}`, { method, cookie: boss.cookie, json: body });
        expect(res.status, method).toBe(409);
        expect((await json(res)).error).toBe(MESSAGES.notYourself);
      }
      expect((await whoIs(boss.cookie)).role).toBe("super_admin");
    });
  });

  describe("staff settings", () => {
    const settings = (id: number, body: unknown, cookie = boss.cookie) =>
      req(`/api/admin/staff/${id}/settings`, { method: "PUT", json: body, cookie });
    const allowed = (userId: number) =>
      new StaffPermissions(server.services.database.db).allows(
        { ...({} as PublicUser), id: userId, role: "limited_admin", is_active: true },
        "announcements",
      );

    it("a super admin sets a staff member's address and grants, then revokes, the announcements permission; each change audited", async () => {
      const helper = await loginAs(server, "limited_admin", { username: "settings-helper" });
      expect(await allowed(helper.userId)).toBe(false);
      const listed = (await json(await req("/api/admin/staff", { cookie: boss.cookie }))).staff.find(
        (s: StaffRow) => s.id === helper.userId,
      );
      expect(listed).toMatchObject({ email: null, permissions: [] });

      const granted = await settings(helper.userId, { email: " Helper@Example.org ", announcements: true });
      expect(granted.status).toBe(200);
      expect((await json(granted)).staff).toMatchObject({ id: helper.userId, email: "Helper@Example.org", permissions: ["announcements"] });
      expect(await allowed(helper.userId)).toBe(true);
      expect(
        (await json(await req("/api/admin/staff", { cookie: boss.cookie }))).staff.find((s: StaffRow) => s.id === helper.userId),
      ).toMatchObject({ email: "Helper@Example.org", permissions: ["announcements"] });
      const grantEntry = (await auditEntries("&action=staff.settings"))[0];
      expect(grantEntry).toMatchObject({
        actor_id: boss.userId,
        target_type: "staff",
        target_id: helper.userId,
        target_label: "settings-helper",
        details: { fields: ["email"], announcements: "granted" },
      });
      // The address itself is not written to the log.
      expect(JSON.stringify(grantEntry)).not.toContain("Helper@Example.org");

      // The same again changes nothing and records nothing.
      expect((await settings(helper.userId, { email: "Helper@Example.org", announcements: true })).status).toBe(200);
      expect((await auditEntries("&action=staff.settings"))[0].id).toBe(grantEntry.id);

      const revoked = await json(await settings(helper.userId, { email: null, announcements: false }));
      expect(revoked.staff).toMatchObject({ email: null, permissions: [] });
      expect(await allowed(helper.userId)).toBe(false);
      expect((await auditEntries("&action=staff.settings"))[0]).toMatchObject({
        target_id: helper.userId,
        details: { fields: ["email"], announcements: "revoked" },
      });
    });

    it("a super admin's own address can be set (they may write announcements anyway: nothing stored)", async () => {
      const res = await settings(boss.userId, { email: "boss@example.org", announcements: false });
      expect(res.status).toBe(200);
      expect((await json(res)).staff).toMatchObject({ email: "boss@example.org", permissions: [] });
      const rows = await server.services.database.db
        .selectFrom("staff_permissions")
        .select("user_id")
        .where("user_id", "=", boss.userId)
        .execute();
      expect(rows).toEqual([]);
    });

    it("a limited admin cannot call it, even for themselves; bad input and members are refused, changing nothing", async () => {
      const res = await settings(limited.userId, { email: "me@example.org", announcements: true }, limited.cookie);
      expect(res.status).toBe(403);
      expect(await allowed(limited.userId)).toBe(false);
      expect((await server.services.auth.users.findById(limited.userId))?.email ?? null).toBeNull();

      const bad = await settings(limited.userId, { email: "not-an-address", announcements: true });
      expect(bad.status).toBe(400);
      expect((await json(bad)).error).toContain("Enter an e-mail address like name@example.com.");
      for (const body of [
        { email: null },
        { email: null, announcements: "yes" },
        { email: null, announcements: true, role: "super_admin" },
      ])
        expect((await settings(limited.userId, body)).status, JSON.stringify(body)).toBe(400);
      expect((await settings(member.userId, { email: null, announcements: true })).status).toBe(404);
      expect((await settings(999_999_999, { email: null, announcements: true })).status).toBe(404);
      expect(await allowed(limited.userId)).toBe(false);
    });
  });

  describe("audit log", () => {
    it("is newest first, paginated, and filtered by person and by action", async () => {
      const all = await auditEntries();
      const times = all.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(all.every((e) => AUDIT_ACTIONS.includes(e.action))).toBe(true);

      const byLimited = await auditEntries(`&actorId=${limited.userId}`);
      expect(byLimited.length).toBeGreaterThan(0);
      expect(byLimited.every((e) => e.actor_id === limited.userId)).toBe(true);
      const deletes = await auditEntries("&action=members.delete");
      expect(deletes.length).toBeGreaterThan(0);
      expect(deletes.every((e) => e.action === "members.delete")).toBe(true);

      const page = await json(await req("/api/admin/audit?pageSize=10&page=2", { cookie: boss.cookie }));
      expect(page.pagination).toMatchObject({ page: 2, pageSize: 10, total: all.length });
      expect(page.entries.map((e: AuditEntry) => e.id)).toEqual(all.slice(10, 20).map((e) => e.id));
      expect(page.actors).toEqual(
        expect.arrayContaining([
          { id: boss.userId, label: "boss" },
          { id: limited.userId, label: "limited-one" },
        ]),
      );

      for (const query of ["action=members.hack", "actorId=abc", "page=0", "pageSize=1000"]) {
        expect((await req(`/api/admin/audit?${query}`, { cookie: boss.cookie })).status, query).toBe(400);
      }
    });

    it("an import writes one entry with one call, and it keeps its actor's name after the account is gone", async () => {
      const importer = await loginAs(server, "limited_admin", { username: "importer" });
      await server.services.audit.record({
        actorId: importer.userId,
        action: "members.import",
        rowCount: 8000,
        details: { filename: "members.csv", errors: 3 },
      });
      await req(`/api/admin/staff/${importer.userId}`, { method: "DELETE", cookie: boss.cookie });
      const [entry] = await auditEntries("&action=members.import");
      expect(entry).toMatchObject({
        actor_id: importer.userId,
        actor_label: "importer",
        row_count: 8000,
        details: { filename: "members.csv", errors: 3 },
      });
    });

    it("a change and its audit entry are written together or not at all", async () => {
      const id = await addMember("ATOMIC-1");
      const { memberAdmin, database, audit } = server.services;
      // The audit write fails (a full disk, a lost connection): the deletion must roll back.
      const spy = vi.spyOn(audit, "record").mockRejectedValueOnce(new Error("audit write failed"));
      await expect(memberAdmin.deleteMember({ id: boss.userId }, id)).rejects.toThrow("audit write failed");
      spy.mockRestore();
      expect(await server.services.auth.users.findById(id)).toBeDefined();
      const n = await database.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("target_id", "=", id)
        .executeTakeFirst();
      expect(Number(n?.n)).toBe(0);
    });
  });

  describe("the last super_admin", () => {
    /** Leaves exactly the given accounts as super_admins. */
    async function onlySuperAdmins(ids: number[]) {
      await server.services.database.db
        .updateTable("users")
        .set({ role: "limited_admin" })
        .where("role", "=", "super_admin")
        .where("id", "not in", ids)
        .execute();
    }

    it("cannot be demoted or removed, even by another super_admin's racing request", async () => {
      for (let round = 0; round < 6; round++) {
        const a = await loginAs(server, "super_admin", { username: `race-a-${round}` });
        const b = await loginAs(server, "super_admin", { username: `race-b-${round}` });
        await onlySuperAdmins([a.userId, b.userId]);
        // Each demotes or removes the other at the same moment: exactly one may win.
        const aAct = round % 2 ? { method: "DELETE" } : { method: "PATCH", json: { role: "limited_admin" } };
        const bAct = round % 3 ? { method: "PATCH", json: { role: "limited_admin" } } : { method: "DELETE" };
        const [ra, rb] = await Promise.all([
          req(`/api/admin/staff/${b.userId}`, { ...aAct, cookie: a.cookie }),
          req(`/api/admin/staff/${a.userId}`, { ...bAct, cookie: b.cookie }),
        ]);
        const statuses = [ra.status, rb.status].sort();
        // The loser was either refused outright, or demoted/removed before its own request was checked.
        expect(statuses, `round ${round}`).toEqual(expect.arrayContaining([200]));
        expect(
          statuses.filter((s) => s === 200),
          `round ${round}`,
        ).toHaveLength(1);
        const supers = await server.services.database.db
          .selectFrom("users")
          .select("id")
          .where("role", "=", "super_admin")
          .where("is_active", "=", 1)
          .execute();
        expect(supers, `round ${round}`).toHaveLength(1);
      }
    });

    it("refuses with a clear message when only one is left", async () => {
      const other = await loginAs(server, "limited_admin", { username: "solo-other" });
      const c = await loginAs(server, "super_admin", { username: "solo-c" });
      await onlySuperAdmins([c.userId]);
      expect((await req(`/api/admin/staff/${c.userId}`, { method: "DELETE", cookie: c.cookie })).status).toBe(409);
      // Another actor (the HTTP layer would stop a limited admin earlier; the rule itself must hold too).
      await expect(server.services.memberAdmin.changeStaffRole({ id: other.userId }, c.userId, "limited_admin")).rejects.toMatchObject({
        kind: "conflict",
        message: MESSAGES.lastSuperAdmin,
      });
      await expect(server.services.memberAdmin.deleteStaff({ id: other.userId }, c.userId)).rejects.toMatchObject({
        kind: "conflict",
        message: MESSAGES.lastSuperAdmin,
      });
      expect((await server.services.auth.users.findById(c.userId))!.role).toBe("super_admin");
      expect((await req(`/api/admin/staff/${c.userId}`, { method: "PATCH", cookie: c.cookie, json: { role: "super_admin" } })).status).toBe(
        409,
      );
    });

    it("holds when the two changes race inside the database (no role check in front)", async () => {
      const { memberAdmin } = server.services;
      for (let round = 0; round < 8; round++) {
        const a = await server.services.auth.createStaff(`db-race-a-${round}`, STAFF_PASSWORD, "super_admin");
        const b = await server.services.auth.createStaff(`db-race-b-${round}`, STAFF_PASSWORD, "super_admin");
        await onlySuperAdmins([a.id, b.id]);
        const results = await Promise.allSettled([
          round % 2 ? memberAdmin.deleteStaff({ id: a.id }, b.id) : memberAdmin.changeStaffRole({ id: a.id }, b.id, "limited_admin"),
          round % 3 ? memberAdmin.changeStaffRole({ id: b.id }, a.id, "limited_admin") : memberAdmin.deleteStaff({ id: b.id }, a.id),
        ]);
        expect(
          results.filter((r) => r.status === "fulfilled"),
          `round ${round}`,
        ).toHaveLength(1);
        const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect(refused.reason).toMatchObject({ kind: "conflict", message: MESSAGES.lastSuperAdmin });
        const supers = await server.services.database.db.selectFrom("users").select("id").where("role", "=", "super_admin").execute();
        expect(supers, `round ${round}`).toHaveLength(1);
      }
    });

    it("does not count an inactive super_admin as the other one", async () => {
      const other = await loginAs(server, "limited_admin", { username: "inactive-check-other" });
      const active = await server.services.auth.createStaff("inactive-check-active", STAFF_PASSWORD, "super_admin");
      const dormant = await server.services.auth.createStaff("inactive-check-dormant", STAFF_PASSWORD, "super_admin");
      await onlySuperAdmins([active.id, dormant.id]);
      await server.services.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", dormant.id).execute();
      const { memberAdmin } = server.services;
      await expect(memberAdmin.changeStaffRole({ id: other.userId }, active.id, "limited_admin")).rejects.toMatchObject({
        kind: "conflict",
        message: MESSAGES.lastSuperAdmin,
      });
      await expect(memberAdmin.deleteStaff({ id: other.userId }, active.id)).rejects.toMatchObject({
        kind: "conflict",
        message: MESSAGES.lastSuperAdmin,
      });
      expect((await server.services.auth.users.findById(active.id))!.role).toBe("super_admin");
      // The inactive one may go: an active super_admin remains.
      await memberAdmin.changeStaffRole({ id: other.userId }, dormant.id, "limited_admin");
      expect((await server.services.auth.users.findById(dormant.id))!.role).toBe("limited_admin");
    });
  });

  describe("rows a change must not touch", () => {
    const db = () => server.services.database.db;
    let chief: { cookie: string; userId: number };
    beforeAll(async () => {
      chief = await loginAs(server, "super_admin", { username: "guard-chief" });
    });

    /** Members and staff with live sessions beside the account an action is about. */
    async function neighbours(label: string) {
      const memberId = await addMember(`${label}-NEAR`, { first: "Near", last: "By" });
      const memberSession = sessionCookieFrom(await memberLogin(`${label}-NEAR`));
      const staff = await loginAs(server, "limited_admin", { username: `${label.toLowerCase()}-near-staff` });
      return { memberId, memberSession, staff };
    }

    it("deactivating a member changes that member only and ends only their sessions; activating ends none", async () => {
      const near = await neighbours("GA");
      const id = await addMember("GA-TARGET", { first: "Tar", last: "Get" });
      const sessions = [sessionCookieFrom(await memberLogin("GA-TARGET")), sessionCookieFrom(await memberLogin("GA-TARGET"))];
      let guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const off = await req(`/api/admin/members/${id}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: false } });
      expect(off.status).toBe(200);
      await guard.expectChanges({
        users: { changed: [id], columns: ["is_active", "updated_at"] },
        sessions: { removed: sessions.map(sessionKey), mayChange: [sessionKey(limited.cookie)] },
        audit_log: { added: 1 },
      });
      expect(await whoIs(near.memberSession)).not.toBeNull();

      guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const on = await req(`/api/admin/members/${id}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: true } });
      expect(on.status).toBe(200);
      await guard.expectChanges({
        users: { changed: [id], columns: ["is_active", "updated_at"] },
        sessions: { mayChange: [sessionKey(limited.cookie), sessionKey(near.memberSession)] },
        audit_log: { added: 1 },
      });
    });

    it("deleting a member removes that member and their sessions only", async () => {
      const near = await neighbours("GD");
      const id = await addMember("GD-TARGET");
      const session = sessionCookieFrom(await memberLogin("GD-TARGET"));
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      expect((await req(`/api/admin/members/${id}`, { method: "DELETE", cookie: limited.cookie })).status).toBe(200);
      await guard.expectChanges({
        users: { removed: [id] },
        sessions: { removed: [sessionKey(session)], mayChange: [sessionKey(limited.cookie)] },
        audit_log: { added: 1 },
      });
      expect(await whoIs(near.memberSession)).not.toBeNull();
    });

    it("adding a staff account adds one row and changes no other", async () => {
      await neighbours("GS");
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const res = await req("/api/admin/staff", {
        method: "POST",
        cookie: chief.cookie,
        json: { username: "guard-added", role: "limited_admin", password: "twelve-chars" },
      });
      expect(res.status).toBe(201);
      const changes = await guard.expectChanges({
        users: { added: 1 },
        sessions: { mayChange: [sessionKey(chief.cookie)] },
        audit_log: { added: 1 },
      });
      expect(changes.users.added[0]).toMatchObject({ username: "guard-added", role: "limited_admin" });
    });

    it("a role change rewrites that account's role only, and refused changes touch nothing", async () => {
      const near = await neighbours("GR");
      const target = await loginAs(server, "limited_admin", { username: "guard-role-target" });
      let guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const res = await req(`/api/admin/staff/${target.userId}`, { method: "PATCH", cookie: chief.cookie, json: { role: "super_admin" } });
      expect(res.status).toBe(200);
      await guard.expectChanges({
        users: { changed: [target.userId], columns: ["role", "updated_at"] },
        sessions: { mayChange: [sessionKey(chief.cookie)] },
        audit_log: { added: 1 },
      });

      guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      for (const [path, json, status] of [
        [`/api/admin/staff/${near.memberId}`, { role: "limited_admin" }, 404],
        [`/api/admin/staff/${chief.userId}`, { role: "limited_admin" }, 409],
        [`/api/admin/staff/999999`, { role: "super_admin" }, 404],
      ] as const) {
        expect((await req(path, { method: "PATCH", cookie: chief.cookie, json })).status, path).toBe(status);
      }
      await guard.expectChanges({ sessions: { mayChange: [sessionKey(chief.cookie)] } });
    });

    it("a password reset rewrites that account's password and ends only that account's sessions", async () => {
      const near = await neighbours("GP");
      const target = await loginAs(server, "limited_admin", { username: "guard-pw-target" });
      const second = sessionCookieFrom(await staffLogin("guard-pw-target"));
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const res = await req(`/api/admin/staff/${target.userId}/password`, {
        method: "POST",
        cookie: chief.cookie,
        json: { password: "a-new-long-password" },
      });
      expect(res.status).toBe(200);
      await guard.expectChanges({
        users: { changed: [target.userId], columns: ["password_hash", "updated_at"] },
        sessions: { removed: [sessionKey(target.cookie), sessionKey(second)], mayChange: [sessionKey(chief.cookie)] },
        audit_log: { added: 1 },
      });
      expect(await whoIs(near.staff.cookie)).not.toBeNull();
    });

    it("resetting your own password ends your other sessions only, not the one you act from nor anyone else's", async () => {
      await neighbours("GO");
      const me = await loginAs(server, "super_admin", { username: "guard-self" });
      const elsewhere = sessionCookieFrom(await staffLogin("guard-self"));
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const res = await req(`/api/admin/staff/${me.userId}/password`, {
        method: "POST",
        cookie: me.cookie,
        json: { password: "my-own-new-password" },
      });
      expect(res.status).toBe(200);
      await guard.expectChanges({
        users: { changed: [me.userId], columns: ["password_hash", "updated_at"] },
        sessions: { removed: [sessionKey(elsewhere)], mayChange: [sessionKey(me.cookie)] },
        audit_log: { added: 1 },
      });
    });

    it("removing a staff account removes that account and its sessions only", async () => {
      const near = await neighbours("GX");
      const target = await loginAs(server, "limited_admin", { username: "guard-leaving" });
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      expect((await req(`/api/admin/staff/${target.userId}`, { method: "DELETE", cookie: chief.cookie })).status).toBe(200);
      await guard.expectChanges({
        users: { removed: [target.userId] },
        sessions: { removed: [sessionKey(target.cookie)], mayChange: [sessionKey(chief.cookie)] },
        audit_log: { added: 1 },
      });
      expect(await whoIs(near.staff.cookie)).not.toBeNull();
    });

    it("a member endpoint never touches a staff row, and a staff endpoint never a member row", async () => {
      const near = await neighbours("GW");
      const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
      const attempts: Array<[string, string, unknown, number]> = [
        ["PATCH", `/api/admin/members/${near.staff.userId}`, { is_active: false }, 404],
        ["DELETE", `/api/admin/members/${near.staff.userId}`, undefined, 404],
        ["POST", `/api/admin/staff/${near.memberId}/password`, { password: "a-new-long-password" }, 404],
        ["DELETE", `/api/admin/staff/${near.memberId}`, undefined, 404],
      ];
      for (const [method, path, json, status] of attempts) {
        expect((await req(path, { method, json, cookie: chief.cookie })).status, `${method} ${path}`).toBe(status);
      }
      await guard.expectChanges({ sessions: { mayChange: [sessionKey(chief.cookie)] } });
    });
  });
});
