import { afterAll, beforeAll, expect, it } from "vitest";
import { startPageTestServer, type PageTestServer } from "../../../tests/support/page-app";
import { describeEachDatabase } from "../../../tests/support/test-app";
import { ANNOUNCEMENT_MESSAGES, UNSUBSCRIBE_TEXTS } from "./contract";

/**
 * The unsubscribe link's page as a member (or a mail program's link checker) opens it: it asks
 * and changes nothing; its button posts, as the one click does; a link nobody made is a 404.
 */
describeEachDatabase("the unsubscribe page", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  it("opening the link asks and changes nothing; the button stops announcements; a forged link is a 404", async () => {
    const { auth, announcements } = server.services;
    const { id } = await auth.users.createMember({
      certificate: `UNS${dialect}1`,
      birthdateDigest: auth.digestBirthdate("1980-01-15"),
      firstName: "Robin",
    });
    const token = announcements["deps"].tokens.make(id);

    for (let i = 0; i < 2; i++) {
      const res = await server.request(`/unsubscribe/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      const html = (await res.text()).replaceAll("&#x27;", "'");
      expect(html).toContain(UNSUBSCRIBE_TEXTS.question("Robin"));
      expect(html).toContain(UNSUBSCRIBE_TEXTS.confirm);
    }
    expect(await announcements.receives(id)).toBe(true);

    // The button (a form post to the page, as without JavaScript), behind the same-origin guard.
    const posted = await server.request(`/unsubscribe/${token}`, {
      method: "POST",
      body: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    });
    expect(posted.status).toBe(200);
    expect(await announcements.receives(id)).toBe(false);
    expect((await posted.text()).replaceAll("&#x27;", "'")).toContain(UNSUBSCRIBE_TEXTS.done);

    // A mail program's one click: no cookie, no Origin.
    await announcements.setReceive(id, true, "account");
    const click = await server.request(`/unsubscribe/${token}`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(click.status).toBe(200);
    expect(await announcements.receives(id)).toBe(false);

    const forged = await server.request(`/unsubscribe/${id.toString(36)}.${"x".repeat(32)}`);
    expect(forged.status).toBe(404);
    expect(await forged.text()).toContain(ANNOUNCEMENT_MESSAGES.badLink);
  });
});
