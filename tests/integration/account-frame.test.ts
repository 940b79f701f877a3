import crypto from "node:crypto";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { SignedInPages } from "../../app/server/signed-in-pages.server";
import { describeEachDatabase, sessionCookieFrom } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const PUBLIC_URL = "https://www.hoa.example";

/*
 * My account kept as a frame (decision 013): the header, footer and React Router's document
 * rendered once per role and shape of the member, the member's own content read and rendered
 * for each request and put in. Every answer is held to the page rendered for that request
 * alone, on an instance that keeps nothing.
 */
describeEachDatabase("My account's kept frame", (dialect) => {
  let server: PageTestServer;
  let reference: Awaited<ReturnType<PageTestServer["startInstance"]>>;
  let staffId: number;
  beforeAll(async () => {
    server = await startPageTestServer(dialect, { PUBLIC_URL });
    reference = await server.startInstance({ keepPages: false });
    staffId = Number((await server.services.auth.createStaff(`frame${crypto.randomInt(1e9)}`, "correct horse battery", "super_admin")).id);
  });
  afterAll(() => server.close());

  const kept = () => server.app.locals.signedInPages as SignedInPages;

  interface Person {
    cookie: string;
    id: number;
    certificate: string;
    secrets: string[];
  }

  async function member(firstName: string | null, lastName: string | null = null): Promise<Person> {
    const { auth } = server.services;
    const certificate = `M${crypto.randomInt(1e9)}`;
    const { id } = await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName, lastName });
    const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    expect(res.status).toBe(200);
    return {
      cookie: sessionCookieFrom(res),
      id: Number(id),
      certificate,
      secrets: [certificate, ...[firstName, lastName].filter((v): v is string => !!v)],
    };
  }

  const sameOrigin = { Origin: PUBLIC_URL };

  async function saveContact(person: Person, contact: Record<string, string | null>) {
    const res = await server.request("/api/account/contact", { method: "PUT", cookie: person.cookie, headers: sameOrigin, json: contact });
    expect(res.status).toBe(200);
  }

  /** A message sent while signed in: one of the member's submissions. */
  async function sendMessage(person: Person, message: string): Promise<number> {
    const res = await server.request("/api/forms", {
      method: "POST",
      cookie: person.cookie,
      headers: sameOrigin,
      json: { name: "Sender", email: "sender@example.com", phone: "", subject: "warranty", message },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  function nonceOf(res: Response): string {
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    return nonce!;
  }

  /** The page as answered (200, private, no-store, a nonce of its own on every script), the nonce replaced by a fixed word. */
  async function normalized(res: Response): Promise<{ html: string; nonce: string }> {
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const nonce = nonceOf(res);
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    return { html: html.split(nonce).join("NONCE"), nonce };
  }

  /** The page as the person gets it, and as a fresh render for them gives it. */
  async function bothRenders(person: Person) {
    const served = await normalized(await server.request("/account", { cookie: person.cookie }));
    const fresh = await normalized(await reference.request("/account", { cookie: person.cookie }));
    return { served, fresh };
  }

  async function hydrationData(html: string): Promise<unknown> {
    const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)].map((m) => JSON.parse(m[1]) as string);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const decoded = await decodeViaTurboStream(stream, globalThis);
    await decoded.done;
    return decoded.value;
  }

  const otherScripts = (html: string) =>
    [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)]
      .map((m) => m[0])
      .filter((script) => !script.includes("streamController.enqueue("));
  const outsideScripts = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "<script/>");

  /** The same page: the HTML outside the scripts byte for byte, the hydration data decoded, the other scripts byte for byte. */
  async function expectSamePage(served: string, fresh: string, what: string) {
    expect(outsideScripts(served), what).toBe(outsideScripts(fresh));
    expect(await hydrationData(served), what).toEqual(await hydrationData(fresh));
    expect(otherScripts(served), what).toEqual(otherScripts(fresh));
  }

  function writings(value: string): string[] {
    const html = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
    const json = JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1);
    const twice = JSON.stringify(JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1)).slice(1, -1);
    return [value, html, json, twice];
  }

  function expectNothingOf(html: string, other: { secrets: string[]; nonce?: string }) {
    for (const secret of [...other.secrets, ...(other.nonce ? [other.nonce] : [])]) {
      for (const written of writings(secret)) expect(html).not.toContain(written);
    }
  }

  /** The account page's own data as the page hands it to the browser. */
  async function overviewOf(html: string): Promise<{ membership: { certificate: string }; contact: Record<string, string | null> }> {
    const data = (await hydrationData(html)) as { loaderData: Record<string, { overview?: string }> };
    return JSON.parse(data.loaderData["routes/account"].overview!);
  }

  it("serves each member their own page from one kept frame, exactly as a render for them alone", async () => {
    const names: Array<[string | null, string | null]> = [
      ["Quillonia", "Brackenridge"],
      [`Zoë <b>"Q"</b> & 'co'`, "</script><script>alert(1)</script>"],
      ["Ωмега\u2028Line", "汉字"],
      [null, null],
      ["", "Solo"],
      ["Same", "Same"],
    ];
    const people = await Promise.all(names.map(([first, last]) => member(first, last)));
    // Contact details and messages with what HTML, scripts and JSON escape, different for each member.
    for (const [i, person] of people.entries()) {
      const street = `${i} Elm <Street> & "Sons" </script>\u2028`;
      await saveContact(person, {
        email: null,
        phone: "2035550199",
        address1: street,
        address2: null,
        city: "Stamford",
        state: "ct",
        zip: "06905",
      });
      person.secrets.push(street);
      if (i % 2 === 0) {
        const id = await sendMessage(person, `Question ${i}`);
        await server.services.submissionAdmin.setStatus({ id: staffId }, "contact_messages", id, "in-review");
      }
    }
    const before = kept().lookups.kept;
    for (const round of [1, 2]) {
      for (const [i, person] of people.entries()) {
        const { served, fresh } = await bothRenders(person);
        await expectSamePage(served.html, fresh.html, `member ${i}, round ${round}`);
        expect((await overviewOf(served.html)).membership.certificate).toBe(person.certificate);
        for (const [j, other] of people.entries()) if (j !== i) expectNothingOf(served.html, other);
      }
    }
    // In the second round every answer came from the kept frame (the first ask of a shape is rendered alone, the second makes the frame).
    expect(kept().lookups.kept - before).toBeGreaterThanOrEqual(people.length);
  }, 60_000);

  it("member A never gets member B's page: names, certificate, id, contact details, messages and nonce stay with their member", async () => {
    const a = await member("Aurelio", "Fenwick");
    const b = await member("Birgitta", "Oyelaran");
    await saveContact(a, {
      email: null,
      phone: "2035550111",
      address1: "1 Aurelio Lane",
      address2: null,
      city: "Darien",
      state: "CT",
      zip: "06820",
    });
    await saveContact(b, {
      email: null,
      phone: "2035550122",
      address1: "2 Birgitta Road",
      address2: null,
      city: "Norwalk",
      state: "CT",
      zip: "06850",
    });
    a.secrets.push("(203) 555-0111", "1 Aurelio Lane", "Darien");
    b.secrets.push("(203) 555-0122", "2 Birgitta Road", "Norwalk");
    for (const warm of [await member("Warm", "Up"), await member("Warm", "Again")])
      await server.request("/account", { cookie: warm.cookie });
    const keptBefore = kept().lookups.kept;
    for (const round of [1, 2]) {
      const first = await server.request("/account", { cookie: a.cookie });
      const aNonce = nonceOf(first);
      const aHtml = await first.text();
      const second = await server.request("/account", { cookie: b.cookie });
      const bNonce = nonceOf(second);
      const bHtml = await second.text();
      expect(bNonce).not.toBe(aNonce);
      expectNothingOf(bHtml, { ...a, nonce: aNonce });
      expectNothingOf(aHtml, { ...b, nonce: bNonce });
      expect(aHtml, `round ${round}`).toContain("Hello, Aurelio Fenwick");
      expect(bHtml, `round ${round}`).toContain("Hello, Birgitta Oyelaran");
      expect(bHtml).toContain("2 Birgitta Road");
      expect((await overviewOf(bHtml)).contact.city).toBe("Norwalk");
    }
    expect(kept().lookups.kept - keptBefore).toBeGreaterThanOrEqual(4);
  });

  it("a change shows on the next load: contact details edited, a message sent and its status changed", async () => {
    const person = await member("Chandra", "Okafor");
    for (let i = 0; i < 2; i++) await server.request("/account", { cookie: person.cookie });
    expect((await bothRenders(person)).served.html).toContain("Nothing yet.");

    await saveContact(person, {
      email: null,
      phone: "2035550177",
      address1: "77 Harbor View",
      address2: null,
      city: "Greenwich",
      state: "ct",
      zip: "06830",
    });
    let { served, fresh } = await bothRenders(person);
    expect(served.html).toContain('value="77 Harbor View"');
    expect(served.html).toContain('value="CT"');
    await expectSamePage(served.html, fresh.html, "after the contact details were saved");

    const id = await sendMessage(person, "Is my roof covered?");
    ({ served, fresh } = await bothRenders(person));
    expect(served.html).not.toContain("Nothing yet.");
    expect(served.html).toContain("Contact Form");
    await expectSamePage(served.html, fresh.html, "after a message was sent");

    await server.services.submissionAdmin.setStatus({ id: staffId }, "contact_messages", id, "in-review");
    ({ served, fresh } = await bothRenders(person));
    expect(served.html).toContain("In Review");
    await expectSamePage(served.html, fresh.html, "after its status changed");
  });

  it("signed out, the session's cookie gets no account page; staff are still sent to their dashboard", async () => {
    const person = await member("Signe", "Outward");
    for (let i = 0; i < 3; i++) expect((await server.request("/account", { cookie: person.cookie })).status).toBe(200);
    const out = await server.request("/api/auth/logout", { method: "POST", cookie: person.cookie, headers: sameOrigin });
    expect(out.status).toBeLessThan(400);
    const after = await server.request("/account", { cookie: person.cookie });
    const html = await after.text();
    expectNothingOf(html, person);
    expect(html).not.toContain("Hello, Signe");

    const staff = await server.request("/api/auth/login", {
      method: "POST",
      json: { username: (await server.services.auth.users.findById(staffId))!.username, password: "correct horse battery", kind: "staff" },
    });
    const staffCookie = sessionCookieFrom(staff);
    for (let i = 0; i < 3; i++) {
      const res = await server.request("/account", { cookie: staffCookie, redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/admin/dashboard");
    }
  });
});
