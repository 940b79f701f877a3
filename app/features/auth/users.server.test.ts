import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, sessionCookieFrom, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * The one writer of users (UsersRepo) ends the sessions that a changed birthdate or a
 * deactivation requires, whichever service asks: staff's Edit, the member import, staff's
 * deactivation and the auth service's (the admin command line's). Through the real API.
 */
describeEachDatabase("the one writer of users: the sessions a change ends", (dialect) => {
  let server: TestServer;
  let staff: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = (await loginAs(server, "limited_admin", { username: `one-writer-${dialect}` })).cookie;
  });
  afterAll(() => server.close());

  /** A member signed in twice (the seeded birthdate is 1980-01-15). */
  const signedInMember = async (certificate: string) => {
    const first = await loginAs(server, "member", { certificate });
    const again = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    expect(again.status).toBe(200);
    return { id: first.userId, sessions: [first.cookie, sessionCookieFrom(again)] };
  };
  const signedIn = async (cookie: string) =>
    ((await (await server.request("/api/auth/me", { cookie })).json()) as { user: unknown }).user !== null;
  const sessionsOf = async (id: number) =>
    (await server.services.database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", id).execute()).length;

  it("a birthdate changed by Edit or by the import, and a deactivation by staff or by the auth service, end that member's sessions only", async () => {
    const edited = await signedInMember("ONEW-EDIT");
    const imported = await signedInMember("ONEW-IMPORT");
    const importedSame = await signedInMember("ONEW-SAME");
    const deactivated = await signedInMember("ONEW-DEACT");
    const deactivatedByAuth = await signedInMember("ONEW-AUTH");
    const bystander = await signedInMember("ONEW-NEAR");

    const edit = await server.request(`/api/admin/members/${edited.id}`, {
      method: "PUT",
      cookie: staff,
      json: { first_name: "Pat", last_name: "Lee", birthdate: "03/09/1975" },
    });
    expect(edit.status).toBe(200);

    const upload = await server.request("/api/upload-users", {
      method: "POST",
      cookie: staff,
      json: {
        csvContent: [
          "certificate_number,birthdate,first_name,last_name,email",
          "ONEW-IMPORT,1975-03-09,Pat,,",
          "ONEW-SAME,1980-01-15,Pat,,",
        ].join("\n"),
        filename: `one-writer-${dialect}.csv`,
      },
    });
    expect(upload.status).toBe(200);

    const deactivate = await server.request(`/api/admin/members/${deactivated.id}`, {
      method: "PATCH",
      cookie: staff,
      json: { is_active: false },
    });
    expect(deactivate.status).toBe(200);

    await server.services.auth.setActive(deactivatedByAuth.id, false);

    for (const ended of [edited, imported, deactivated, deactivatedByAuth]) {
      expect(await sessionsOf(ended.id)).toBe(0);
      for (const cookie of ended.sessions) expect(await signedIn(cookie)).toBe(false);
    }
    for (const kept of [importedSame, bystander]) {
      expect(await sessionsOf(kept.id)).toBe(2);
      for (const cookie of kept.sessions) expect(await signedIn(cookie)).toBe(true);
    }
    expect(await signedIn(staff)).toBe(true);
  });
});
