import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { multiLineMessage, oneLineMessage } from "../../app/platform/text-fields";
import { ILL_FORMED_TEXT } from "../../app/platform/http.server";
import { rawRequest } from "../support/raw-http";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** Control characters in one-line fields are refused with a clear message, everywhere; messages keep their lines. */
describeEachDatabase("control characters in input", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown, cookie?: string) => server.request(path, { method: "POST", json, cookie });
  const count = async (table: "contact_messages" | "cpa_requests" | "homeowner_material_requests") =>
    Number(
      (
        await server.services.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const contact = { name: "Dana Reyes", email: "dana@example.com", phone: "", subject: "general", message: "Hello" };
  const ONE_LINE_BREAKERS = [
    "\u0000",
    "Dana\r\nReyes",
    "Dana\nReyes",
    "Dana\u2028Reyes",
    "Dana\u2029",
    "Dana\u007f",
    "Dana\tReyes",
    "\u001b[31mDana",
  ];

  // Invisible and direction-changing characters: staff would read spoofed or reversed text.
  const INVISIBLE = [
    "Dana\u202eReyes", // right-to-left override
    "Dana\u202aReyes", // left-to-right embedding
    "Dana\u2066Reyes\u2069", // isolates
    "Dana\u200bReyes", // zero-width space
    "Dana\u200dReyes", // zero-width joiner
    "Da\ufeffna", // zero-width no-break space
    "Dana\u00adReyes", // soft hyphen
    "Dana\u061cReyes", // Arabic letter mark
    "Dana\u{e0041}", // tag character
  ];

  it.each([...ONE_LINE_BREAKERS, ...INVISIBLE])("POST /api/forms refuses the name %j and stores nothing", async (name) => {
    const before = await count("contact_messages");
    const res = await post("/api/forms", { ...contact, name });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe(oneLineMessage("Name"));
    expect(body.details.name).toBe(oneLineMessage("Name"));
    expect(await count("contact_messages")).toBe(before);
  });

  it("refuses control characters in the e-mail and phone, and in the message all but newline and tab", async () => {
    const email = await post("/api/forms", { ...contact, email: "dana@example.com\r\nBcc: x@evil.example" });
    expect(email.status).toBe(400);
    expect((await email.json()).details.email).toBe(oneLineMessage("Email address"));
    const phone = await post("/api/forms", { ...contact, phone: "555\n123 4567" });
    expect(phone.status).toBe(400);
    expect((await phone.json()).details.phone).toBe(oneLineMessage("Phone number"));
    const message = await post("/api/forms", { ...contact, message: "Hello\u0000there" });
    expect(message.status).toBe(400);
    expect((await message.json()).details.message).toBe(multiLineMessage("Message"));
  });

  it("keeps newlines and tabs in a message", async () => {
    const res = await post("/api/forms", { ...contact, message: "Line one\r\nLine two\n\tindented" });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const row = await server.services.database.db
      .selectFrom("contact_messages")
      .select("message")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.message).toBe("Line one\r\nLine two\n\tindented");
  });

  it("refuses them in the request forms' one-line fields, keeps lines in their notes", async () => {
    const cpa = await post("/api/submit-cpa-request", { first_name: "Lee\u0000", email: "lee@example.com" });
    expect(cpa.status).toBe(400);
    expect((await cpa.json()).details.first_name).toBe(oneLineMessage("First name"));
    const material = await post("/api/submit-material-request", { first_name: "Ana", email: "ana@example.com", city: "Stam\nford" });
    expect(material.status).toBe(400);
    expect((await material.json()).details.city).toBe(oneLineMessage("City"));
    const notes = await post("/api/submit-cpa-request", { first_name: "Lee", email: "lee@example.com", notes: "Two\nlines" });
    expect(notes.status).toBe(201);
  });

  it("refuses them on the pages' own form posts (contact, request form, payment)", async () => {
    const form = (path: string, fields: Record<string, string>) =>
      server.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const before = await count("contact_messages");
    const contactPage = await form("/contact-us", { ...contact, name: "Dana\r\nReyes" });
    expect(contactPage.status).toBe(400);
    expect(await contactPage.text()).toContain(oneLineMessage("Name"));
    expect(await count("contact_messages")).toBe(before);
    const request = await form("/form-requests", { form: "cpa", fullName: "Lee\u0000Park", email: "lee@example.com" });
    expect(request.status).toBe(400);
    expect(await request.text()).toContain(oneLineMessage("Full name"));
    const payment = await form("/make-payment", { option: "other", memberId: "AHA1\n2", amount: "45.50" });
    expect(payment.status).toBe(400);
    const amount = await form("/make-payment", { option: "other", amount: "45\n.50" });
    expect(amount.status).toBe(400);
    expect(await amount.text()).toContain(oneLineMessage("Amount"));
  });

  it("refuses them in the login fields with a 400, before any credential check", async () => {
    for (const body of [
      { username: "AHA\u00001", password: "011580" },
      { username: "AHA1\n", password: "011580" },
      { username: "AHA1", password: "01\r\n1580" },
    ]) {
      const res = await post("/api/auth/login", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const res = await post("/api/auth/login", { username: "AHA\u00001", password: "011580" });
    expect((await res.json()).error).toBe(oneLineMessage("Certificate number"));
  });

  it("refuses them in RSS feed names, URLs and the articles query", async () => {
    const { cookie } = await loginAs(server, "super_admin");
    const name = await post("/api/rss/feeds", { name: "News\r\nX", url: "https://example.com/feed.xml" }, cookie);
    expect(name.status).toBe(400);
    expect((await name.json()).details.name).toBe(oneLineMessage("Name"));
    // The URL parser would quietly drop the tab and store https://example.com/feed.xml.
    const url = await post("/api/rss/feeds", { name: "News", url: "https://exam\tple.com/feed.xml" }, cookie);
    expect(url.status).toBe(400);
    expect((await url.json()).details.url).toBe(oneLineMessage("URL"));
    const query = await server.request("/api/rss/articles?category=%00", { cookie });
    expect(query.status).toBe(400);
  });
});

describeEachDatabase("format characters and ill-formed text", (dialect) => {
  let server: PageTestServer;
  let superAdmin: string;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
    superAdmin = (await loginAs(server, "super_admin")).cookie;
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown, cookie?: string) => server.request(path, { method: "POST", json, cookie });
  const contact = { name: "Dana Reyes", email: "dana@example.com", phone: "", subject: "general", message: "Hello" };
  const countContacts = async () =>
    Number(
      (
        await server.services.database.db
          .selectFrom("contact_messages")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("text that is not well-formed Unicode (a lone surrogate) is a 400 wherever JSON is read, and nothing is stored", async () => {
    const before = await countContacts();
    for (const name of ["\ud800", "Dana\udfff", "\udc00\ud800"]) {
      const res = await post("/api/forms", { ...contact, name });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(ILL_FORMED_TEXT);
    }
    // In a key, in a nested value, on staff endpoints too.
    expect((await post("/api/forms", { ...contact, ["x\ud800"]: 1 })).status).toBe(400);
    expect((await post("/api/rss/feeds", { name: "A", url: "https://e.example/f", extra: ["\udbff"] }, superAdmin)).status).toBe(400);
    const upload = await post(
      "/api/upload-users",
      { csvContent: "certificate_number,birthdate\nA\ud800,1980-01-01\n", filename: "a.csv" },
      superAdmin,
    );
    expect(upload.status).toBe(400);
    expect(await upload.json()).toMatchObject({ success: false, error: ILL_FORMED_TEXT, stats: { total_processed: 0 } });
    expect(await countContacts()).toBe(before);
    // A real pair (an emoji) is well-formed text.
    expect((await post("/api/forms", { ...contact, message: "Thanks \ud83d\ude00" })).status).toBe(201);
  });

  it("bytes that are not UTF-8 (0xFF) in a JSON body or a posted page form are a 400, and nothing is stored", async () => {
    const before = await countContacts();
    const send = (path: string, type: string, ...parts: Array<string | number[]>) => {
      const body = Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      return rawRequest(server.port, Buffer.concat([Buffer.from(head), body]));
    };
    const json = await send(
      "/api/forms",
      "application/json",
      '{"name":"Dana',
      [0xff],
      '","email":"dana@example.com","subject":"general","message":"Hello"}',
    );
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body).error).toBe(ILL_FORMED_TEXT);
    const form = "application/x-www-form-urlencoded";
    for (const name of [[0xff], "%FF", "Dan%C3"]) {
      const page = await send("/contact-us", form, "name=Dana", name, "&email=dana%40example.com&subject=general&message=Hello");
      expect(page.status, String(name)).toBe(400);
      expect(page.body, String(name)).toContain(ILL_FORMED_TEXT);
    }
    const multipart = await send(
      "/contact-us",
      "multipart/form-data; boundary=b0",
      '--b0\r\nContent-Disposition: form-data; name="name"\r\n\r\nDana',
      [0xff],
      '\r\n--b0\r\nContent-Disposition: form-data; name="email"\r\n\r\ndana@example.com\r\n--b0--\r\n',
    );
    expect(multipart.status).toBe(400);
    expect(multipart.body).toContain(ILL_FORMED_TEXT);
    expect(await countContacts()).toBe(before);
    // Well-formed UTF-8, raw or escaped, is read as the text it is.
    const fine = await send(
      "/contact-us",
      form,
      "name=Ren",
      [0xc3, 0xa9],
      "e+Dan%C3%A9&email=dana%40example.com&subject=general&message=Hello%25",
    );
    expect(fine.status).toBe(200);
    expect(await countContacts()).toBe(before + 1);
  });

  it("messages refuse bidi controls and separators but keep line breaks, tabs and emoji sequences", async () => {
    for (const message of ["Pay \u202e0001$", "a\u2028b", "a\u2029b", "a\u200bb"]) {
      const res = await post("/api/forms", { ...contact, message });
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect((await res.json()).details.message).toBe(multiLineMessage("Message"));
    }
    const family = "Family: \u{1f468}\u200d\u{1f469}\u200d\u{1f467}\nLine two\tend";
    const res = await post("/api/forms", { ...contact, message: family });
    expect(res.status).toBe(201);
  });

  it("the request forms, feeds and videos refuse them in one-line fields", async () => {
    const cpa = await post("/api/submit-cpa-request", { first_name: "Lee\u202e", email: "lee@example.com" });
    expect(cpa.status).toBe(400);
    expect((await cpa.json()).details.first_name).toBe(oneLineMessage("First name"));
    const feed = await post("/api/rss/feeds", { name: "News\u200b", url: "https://example.com/feed.xml" }, superAdmin);
    expect(feed.status).toBe(400);
    expect((await feed.json()).details.name).toBe(oneLineMessage("Name"));
    const video = await post(
      "/api/videos",
      { title: "Fix a \u202eleak", youtube: "dQw4w9WgXcQ", category: "decor", description: "", duration: "" },
      superAdmin,
    );
    expect(video.status).toBe(400);
    expect(Object.keys((await video.json()).details)).toContain("title");
  });

  it("the member import refuses them in a row's cells (U+2028 too) and in the file name", async () => {
    const csv = (cell: string) => `certificate_number,birthdate,first_name\nFMT1,1980-01-01,${cell}\nFMT2,1981-02-02,Plain\n`;
    for (const cell of ["Ann\u2028Lee", "Ann\u202eLee", "Ann\u200bLee"]) {
      const res = await post("/api/upload-users", { csvContent: csv(cell), filename: "members.csv" }, superAdmin);
      expect(res.status, JSON.stringify(cell)).toBe(200);
      const body = await res.json();
      expect(body.stats).toMatchObject({ successful: 1, errors: 1 });
      expect(body.details[0]).toMatch(/^Line 2: /);
    }
    for (const filename of ["members\u202evsc.csv", "a\u2028b.csv", "a\nb.csv"]) {
      const json = await post("/api/upload-users", { csvContent: csv("Ann"), filename }, superAdmin);
      expect(json.status, `JSON ${JSON.stringify(filename)}`).toBe(400);
      expect((await json.json()).error).toBe(oneLineMessage("filename"));
      // A browser's multipart encoder writes a line break in a file name as %0A (harmless text).
      if (filename.includes("\n")) continue;
      const form = new FormData();
      form.append("csvFile", new Blob([csv("Ann")], { type: "text/csv" }), filename);
      const multipart = await server.request("/api/upload-users", { method: "POST", cookie: superAdmin, body: form });
      expect(multipart.status, `multipart ${JSON.stringify(filename)}`).toBe(400);
      expect((await multipart.json()).error).toBe(oneLineMessage("filename"));
    }
    const audit = await server.services.database.db.selectFrom("audit_log").select("details").execute();
    expect(audit.map((a) => a.details).join("")).not.toMatch(/[\u202e\u2028]/);
  });
});
