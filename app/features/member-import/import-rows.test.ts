import type { Kysely, KyselyPlugin, QueryId } from "kysely";
import type { Database } from "~/platform/schema";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { guardRows, sessionKey } from "../../../tests/support/row-guard";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { nowIso } from "~/platform/db.server";
import type { UploadResponse } from "./contract";
import { membersWriter, WRITE_CHUNK, writeMembers, type MemberWrite } from "./members-writer.server";
import { REPEAT_WINDOW_MS } from "./import-claims.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * The rows a member import may touch: the members its file names, and no other row. Staff
 * accounts are never written, not even one that gains an imported certificate number while
 * the import runs; a blank name in the file keeps the stored one.
 */

const HEADER = "certificate_number,birthdate,first_name,last_name";

describeEachDatabase("member import: the rows it touches", (dialect) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = (await loginAs(server, "limited_admin", { username: `rows-importer-${dialect}` })).cookie;
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  /** Moves stored upload answers back past the repeat window: the next upload of a file really imports. */
  const ageClaims = () =>
    db()
      .updateTable("member_import_claims")
      .set({ finished_at: new Date(Date.now() - REPEAT_WINDOW_MS - 1000).toISOString() })
      .where("finished_at", "is not", null)
      .execute();
  const upload = async (csvContent: string) => {
    const res = await server.request("/api/upload-users", { method: "POST", cookie: admin, json: { csvContent, filename: "members.csv" } });
    return { status: res.status, body: (await res.json()) as UploadResponse };
  };
  const member = (certificate: string) =>
    db().selectFrom("users").selectAll().where("certificate_number", "=", certificate).executeTakeFirstOrThrow();
  const memberLogin = (certificate: string, password: string) =>
    server.request("/api/auth/login", { method: "POST", json: { username: certificate, password } }).then((r) => r.status);

  /** Staff with and without a certificate number, and members the file does not name. */
  async function bystanders(tag: string) {
    const staff = await server.services.auth.createStaff(`${tag.toLowerCase()}-staff`, "correct horse battery", "super_admin");
    await db()
      .updateTable("users")
      .set({ certificate_number: `${tag}STAFF`, first_name: "Staff", last_name: "Person" })
      .where("id", "=", staff.id)
      .execute();
    await server.services.auth.createStaff(`${tag.toLowerCase()}-plain`, "correct horse battery", "limited_admin");
    await upload(`${HEADER}\n${tag}OTHER1,1970-01-01,Other,One\n${tag}OTHER2,1971-01-01,Other,Two\n`);
    return { staffId: staff.id };
  }

  it("changes only the members the file names, adds the new ones, and appends one audit entry", async () => {
    const tag = "RW1X";
    const { staffId } = await bystanders(tag);
    expect((await upload(`${HEADER}\n${tag}A,1980-01-15,Ann,Lee\n${tag}B,1981-02-16,Bo,Ng\n${tag}C,1982-03-17,Cy,Ruiz\n`)).status).toBe(
      200,
    );
    const [a, b, c] = await Promise.all([`${tag}A`, `${tag}B`, `${tag}C`].map(member));

    const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
    // A: new birthdate; B: unchanged; C: new last name; D: new; the staff's certificate: refused.
    const { status, body } = await upload(
      `${HEADER}\n${tag}A,1980-01-16,Ann,Lee\n${tag}B,1981-02-16,Bo,Ng\n${tag}C,1982-03-17,,Ruiz-Ng\n${tag}D,1983-04-18,Di,\n${tag}STAFF,1980-01-01,Not,Staff\n`,
    );
    expect(status).toBe(200);
    expect(body.message).toBe("Imported 4 users (1 new, 2 updated, 1 unchanged); 1 row had errors and was skipped.");
    const changes = await guard.expectChanges({
      users: { added: 1, changed: [a.id, c.id], columns: ["birthdate_digest", "first_name", "last_name", "updated_at"] },
      audit_log: { added: 1 },
      // The uploading admin's own session may be touched by the request (its last-seen time).
      sessions: { mayChange: [sessionKey(admin)] },
    });
    expect(changes.users.added[0]).toMatchObject({ certificate_number: `${tag}D`, first_name: "Di", last_name: null, role: "user" });
    expect(changes.users.changed.map((r) => r.columns)).toEqual([
      ["birthdate_digest", "updated_at"],
      ["last_name", "updated_at"],
    ]);
    expect(await member(`${tag}B`)).toEqual(b);
    expect(await member(`${tag}STAFF`)).toMatchObject({ id: staffId, role: "super_admin", birthdate_digest: null, first_name: "Staff" });
  });

  it("re-importing the same file writes nothing but its audit entry", async () => {
    const tag = "RW2X";
    await bystanders(tag);
    const csv = `${HEADER}\n${tag}A,1980-01-15,Ann,Lee\n${tag}B,1981-02-16,,\n`;
    expect((await upload(csv)).status).toBe(200);
    await ageClaims();
    const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
    expect((await upload(csv)).body.message).toBe("Imported 2 users (0 new, 0 updated, 2 unchanged).");
    await guard.expectChanges({ audit_log: { added: 1 }, sessions: { mayChange: [sessionKey(admin)] } });
  });

  it("a blank first or last name in a re-import keeps the stored one, also when the row is updated", async () => {
    const tag = "RW3X";
    await bystanders(tag);
    expect((await upload(`${HEADER}\n${tag}A,1980-01-15,Ann,Lee\n${tag}B,1981-02-16,Bo,Ng\n`)).status).toBe(200);
    // Both rows get a new birthdate, so both are written; A names no first name, B no last name.
    const again = await upload(`${HEADER}\n${tag}A,1980-01-16,,Lee-Park\n${tag}B,1981-02-17,Bob,\n`);
    expect(again.body.message).toBe("Imported 2 users (0 new, 2 updated, 0 unchanged).");
    expect(await member(`${tag}A`)).toMatchObject({ first_name: "Ann", last_name: "Lee-Park" });
    expect(await member(`${tag}B`)).toMatchObject({ first_name: "Bob", last_name: "Ng" });
    expect(await memberLogin(`${tag}A`, "011680")).toBe(200);
    // A file without the name columns at all keeps both names.
    expect((await upload(`certificate_number,birthdate\n${tag}A,1980-01-17\n`)).status).toBe(200);
    expect(await member(`${tag}A`)).toMatchObject({ first_name: "Ann", last_name: "Lee-Park" });
  });

  it("fills the members' e-mail from the email column; a blank or missing one keeps the stored address", async () => {
    const tag = "RW5X";
    await bystanders(tag);
    const withEmail = `${HEADER},email`;
    const first = await upload(`${withEmail}\n${tag}A,1980-01-15,Ann,Lee,ann@example.com\n${tag}B,1981-02-16,Bo,Ng,\n`);
    expect(first.body.message).toBe("Imported 2 users (2 new, 0 updated, 0 unchanged).");
    expect(await member(`${tag}A`)).toMatchObject({ email: "ann@example.com" });
    expect(await member(`${tag}B`)).toMatchObject({ email: null });
    await ageClaims();

    // A new address alone is a change; a blank cell and a file without the column keep A's.
    const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
    const second = await upload(`${withEmail}\n${tag}A,1980-01-15,Ann,Lee,\n${tag}B,1981-02-16,Bo,Ng, bo@example.org \n`);
    expect(second.body.message).toBe("Imported 2 users (0 new, 1 updated, 1 unchanged).");
    const b = await member(`${tag}B`);
    const changes = await guard.expectChanges({
      users: { changed: [b.id], columns: ["email", "updated_at"] },
      audit_log: { added: 1 },
      sessions: { mayChange: [sessionKey(admin)] },
    });
    expect(changes.users.changed[0].columns).toEqual(["email", "updated_at"]);
    expect(b.email).toBe("bo@example.org");
    expect((await upload(`certificate_number,birthdate\n${tag}A,1980-01-16\n`)).status).toBe(200);
    expect(await member(`${tag}A`)).toMatchObject({ email: "ann@example.com" });

    // An address that is not one makes its row an error; the rest of the file imports.
    const bad = await upload(`${withEmail}\n${tag}C,1982-03-17,Cy,Ruiz,not-an-address\n${tag}D,1983-04-18,Di,Po,di@example.com\n`);
    expect(bad.body.message).toBe("Imported 1 user (1 new, 0 updated, 0 unchanged); 1 row had errors and was skipped.");
    expect(bad.body.details).toEqual(['Line 2: email "not-an-address" is not an e-mail address like name@example.com']);
    expect(await db().selectFrom("users").select("id").where("certificate_number", "=", `${tag}C`).executeTakeFirst()).toBeUndefined();
  });

  it("never writes a staff account, even one that gains an imported certificate number while the import runs", async () => {
    const tag = "RW4X";
    await bystanders(tag);
    const { id: staffId } = await server.services.auth.createStaff(`${tag.toLowerCase()}-late`, "correct horse battery", "limited_admin");
    const late = `${tag}LATE`;
    const { native } = server.services.database;

    // Right after the writer has looked up the staff certificates, the staff account takes one
    // of the file's certificate numbers (committed by another connection on PostgreSQL; on
    // SQLite's single connection, inside the import's own transaction).
    let lookup: QueryId | undefined;
    const raceAfterStaffLookup: KyselyPlugin = {
      transformQuery(args) {
        if (!lookup && args.node.kind === "SelectQueryNode") lookup = args.queryId;
        return args.node;
      },
      async transformResult(args) {
        if (args.queryId === lookup) {
          if (native.dialect === "sqlite") {
            native.database.prepare("update users set certificate_number = ? where id = ?").run(late, staffId);
          } else {
            await db().updateTable("users").set({ certificate_number: late }).where("id", "=", staffId).execute();
          }
        }
        return args.result;
      },
    };

    const rows: MemberWrite[] = [
      { line: 2, certificate: `${tag}NEW`, digest: "a".repeat(64), firstName: "New", lastName: "Member", email: "new@example.com" },
      { line: 3, certificate: late, digest: "b".repeat(64), firstName: "Taken", lastName: "Over", email: "taken@example.com" },
    ];
    const guard = await guardRows(db(), ["users", "sessions", "audit_log"]);
    const outcome = await db()
      .withPlugin(raceAfterStaffLookup)
      .transaction()
      .execute((trx) => writeMembers(trx, dialect, rows, nowIso()));
    expect(lookup).toBeDefined();
    expect(outcome).toMatchObject({ created: 1, updated: 0, unchanged: 1 });
    // The staff row changed only by the certificate number it took; nothing the file says reached it.
    const changes = await guard.expectChanges({ users: { added: 1, changed: [staffId], columns: ["certificate_number"] } });
    expect(changes.users.added[0]).toMatchObject({ certificate_number: `${tag}NEW`, role: "user" });
    expect(await member(late)).toMatchObject({ id: staffId, role: "limited_admin", birthdate_digest: null, first_name: null, email: null });
  });

  it("a streamed import writes each full chunk as its rows arrive, and the rest when it finishes", async () => {
    const tag = `W${dialect}`;
    const row = (i: number): MemberWrite => ({
      line: i + 2,
      certificate: `${tag}${i}`,
      digest: "c".repeat(64),
      firstName: null,
      lastName: null,
      email: null,
    });
    const stored = async (trx: Kysely<Database>) =>
      Number(
        (
          await trx
            .selectFrom("users")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("certificate_number", "like", `${tag}%`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const seen: number[] = [];
    const outcome = await db()
      .transaction()
      .execute(async (trx) => {
        const writer = await membersWriter(trx, dialect, nowIso());
        await writer.write(Array.from({ length: WRITE_CHUNK - 1 }, (_, i) => row(i)));
        seen.push(await stored(trx));
        await writer.write([row(WRITE_CHUNK - 1)]);
        seen.push(await stored(trx));
        await writer.write([row(WRITE_CHUNK), row(WRITE_CHUNK + 1)]);
        seen.push(await stored(trx));
        const done = await writer.finish();
        seen.push(await stored(trx));
        return done;
      });
    expect(seen).toEqual([0, WRITE_CHUNK, WRITE_CHUNK, WRITE_CHUNK + 2]);
    expect(outcome).toMatchObject({ created: WRITE_CHUNK + 2, updated: 0, unchanged: 0, staff: [] });
  });
});
