import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { guardRows } from "../../../tests/support/row-guard";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { ARTICLE_CATEGORIES } from "~/domain/article-categories";
import { parseYoutubeId, VIDEO_MESSAGES, type VideoCategoryCount, type VideoJson } from "./contract";
import { DEFAULT_VIDEOS, SPEC_VIDEO_COUNTS } from "./default-videos";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describe("parseYoutubeId", () => {
  it("accepts an 11-character ID and the usual YouTube URLs", () => {
    expect(parseYoutubeId("dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(parseYoutubeId(" -33wjzNxgSw ")).toBe("-33wjzNxgSw");
    expect(parseYoutubeId("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42")).toBe("dQw4w9WgXcQ");
    expect(parseYoutubeId("https://youtu.be/dQw4w9WgXcQ?si=abc")).toBe("dQw4w9WgXcQ");
    expect(parseYoutubeId("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(parseYoutubeId("https://m.youtube.com/shorts/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
  });
  it("refuses anything else", () => {
    for (const bad of [
      "dQw4w9WgXc",
      "dQw4w9WgXcQQ",
      "dQw4w9WgX<Q",
      "javascript:alert(1)",
      "https://evil.example/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/watch?v=short",
      "",
    ]) {
      expect(parseYoutubeId(bad), bad).toBeNull();
    }
  });
});

describe("default catalogue content", () => {
  it("has the spec's count in every category and valid IDs", () => {
    const counts: Record<string, number> = {};
    for (const v of DEFAULT_VIDEOS) counts[v.category] = (counts[v.category] ?? 0) + 1;
    expect(counts).toEqual(SPEC_VIDEO_COUNTS);
    expect(DEFAULT_VIDEOS.every((v) => /^[A-Za-z0-9_-]{11}$/.test(v.youtubeId))).toBe(true);
    const keys = DEFAULT_VIDEOS.map((v) => `${v.category}/${v.youtubeId}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describeEachDatabase("videos API", (dialect) => {
  let server: TestServer;
  let member: string;
  let limited: string;
  let superAdmin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    expect(await server.services.videos.seedDefaults()).toBe(DEFAULT_VIDEOS.length);
    member = (await loginAs(server, "member")).cookie;
    limited = (await loginAs(server, "limited_admin")).cookie;
    superAdmin = (await loginAs(server, "super_admin")).cookie;
  });
  afterAll(() => server.close());

  const req = (path: string, init: Parameters<TestServer["request"]>[1] = {}) => server.request(path, init);
  const newVideo = {
    title: "How to Bleed a Radiator",
    description: "Let trapped air out.",
    youtube: "https://www.youtube.com/watch?v=abcdefghijk",
    category: "energy_saving_tips",
    duration: "4:05",
  };

  async function firstVideoId(): Promise<number> {
    const res = await req("/api/videos?category=decor", { cookie: superAdmin });
    return ((await res.json()).videos as VideoJson[])[0].id;
  }

  it("is seeded once, with the spec's counts, and never again", async () => {
    expect(await server.services.videos.seedDefaults()).toBe(0);
    const res = await req("/api/videos/categories", { cookie: member });
    expect(res.status).toBe(200);
    const { categories } = (await res.json()) as { categories: VideoCategoryCount[] };
    expect(categories.map((c) => c.value)).toEqual(ARTICLE_CATEGORIES);
    for (const c of categories) expect(c.count, c.value).toBe(SPEC_VIDEO_COUNTS[c.value] ?? 0);
    expect(categories.find((c) => c.value === "home_security")?.label).toBe("Home Security");
  });

  it("anonymous callers get 401 everywhere", async () => {
    const id = await firstVideoId();
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/videos/categories"],
      ["GET", "/api/videos?category=decor"],
      ["POST", "/api/videos", newVideo],
      ["PUT", `/api/videos/${id}`, newVideo],
      ["DELETE", `/api/videos/${id}`],
      ["PUT", "/api/videos/order", { category: "decor", ids: [] }],
    ];
    for (const [method, path, json] of calls) {
      const res = await req(path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).success).toBe(false);
    }
  });

  it("members read a category in order with url, embedUrl and duration; no write", async () => {
    const res = await req("/api/videos?category=decor", { cookie: member });
    expect(res.status).toBe(200);
    const { videos } = (await res.json()) as { videos: VideoJson[] };
    expect(videos).toHaveLength(6);
    expect(videos.map((v) => v.sort_order)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(videos[0]).toMatchObject({
      category: "decor",
      url: `https://www.youtube.com/watch?v=${videos[0].youtube_id}`,
      embedUrl: `https://www.youtube-nocookie.com/embed/${videos[0].youtube_id}`,
      duration: null,
    });
    expect(typeof videos[0].title).toBe("string");
    expect(typeof videos[0].description).toBe("string");
    const empty = await (await req("/api/videos?category=green_design", { cookie: member })).json();
    expect(empty).toEqual({ success: true, videos: [] });
  });

  it("members and limited admins get 403 on every write, and nothing changes", async () => {
    const id = await firstVideoId();
    const before = await server.services.videos.list();
    for (const cookie of [member, limited]) {
      for (const [method, path, json] of [
        ["POST", "/api/videos", newVideo],
        ["PUT", `/api/videos/${id}`, newVideo],
        ["DELETE", `/api/videos/${id}`, undefined],
        [
          "PUT",
          "/api/videos/order",
          {
            category: "decor",
            ids: before
              .filter((v) => v.category === "decor")
              .map((v) => v.id)
              .reverse(),
          },
        ],
      ] as const) {
        const res = await req(path, { method, cookie, json });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    }
    expect(await server.services.videos.list()).toEqual(before);
  });

  it("a super_admin adds, edits, reorders and deletes", async () => {
    const created = await req("/api/videos", { method: "POST", cookie: superAdmin, json: newVideo });
    expect(created.status).toBe(201);
    const { video } = (await created.json()) as { video: VideoJson };
    expect(video).toMatchObject({
      title: "How to Bleed a Radiator",
      youtube_id: "abcdefghijk",
      category: "energy_saving_tips",
      duration: "4:05",
      sort_order: 9,
    });

    const dup = await req("/api/videos", { method: "POST", cookie: superAdmin, json: { ...newVideo, youtube: "abcdefghijk" } });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error).toBe(VIDEO_MESSAGES.duplicate);

    const edited = await req(`/api/videos/${video.id}`, {
      method: "PUT",
      cookie: superAdmin,
      json: { title: "Bleeding Radiators", youtube: "abcdefghij_", category: "home_improvement", description: "", duration: "" },
    });
    expect(edited.status).toBe(200);
    const after = ((await edited.json()) as { video: VideoJson }).video;
    expect(after).toMatchObject({
      id: video.id,
      title: "Bleeding Radiators",
      youtube_id: "abcdefghij_",
      category: "home_improvement",
      duration: null,
      description: "",
      sort_order: 1,
    });

    const cat = "home_improvement";
    const ids = (await server.services.videos.list(cat)).map((v) => v.id);
    const reordered = await req("/api/videos/order", {
      method: "PUT",
      cookie: superAdmin,
      json: { category: cat, ids: [...ids].reverse() },
    });
    expect(reordered.status).toBe(200);
    expect(((await reordered.json()).videos as VideoJson[]).map((v) => v.id)).toEqual([...ids].reverse());
    expect((await server.services.videos.list(cat)).map((v) => v.id)).toEqual([...ids].reverse());

    const deleted = await req(`/api/videos/${video.id}`, { method: "DELETE", cookie: superAdmin });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true });
    const again = await req(`/api/videos/${video.id}`, { method: "DELETE", cookie: superAdmin });
    expect(again.status).toBe(404);
    expect((await again.json()).error).toBe(VIDEO_MESSAGES.notFound);
    const missing = await req(`/api/videos/${video.id}`, { method: "PUT", cookie: superAdmin, json: newVideo });
    expect(missing.status).toBe(404);
  });

  it("refuses an order that is not exactly the category's videos", async () => {
    const ids = (await server.services.videos.list("decor")).map((v) => v.id);
    const other = (await server.services.videos.list("insurance"))[0].id;
    for (const bad of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), other]]) {
      const res = await req("/api/videos/order", { method: "PUT", cookie: superAdmin, json: { category: "decor", ids: bad } });
      expect(res.status).toBe(409);
    }
    expect((await server.services.videos.list("decor")).map((v) => v.id)).toEqual(ids);
  });

  it("answers bad input with 400 and a message, never a 500", async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...newVideo, title: "" }, "title"],
      [{ ...newVideo, title: "a\u0000b" }, "title"],
      [{ ...newVideo, title: "x".repeat(201) }, "title"],
      [{ ...newVideo, youtube: "not a video" }, "youtube"],
      [{ ...newVideo, youtube: "abcdefghij" }, "youtube"],
      [{ ...newVideo, youtube: "https://evil.example/watch?v=abcdefghijk" }, "youtube"],
      [{ ...newVideo, youtube: 12345678901 }, "youtube"],
      [{ ...newVideo, category: "cooking" }, "category"],
      [{ ...newVideo, duration: "ten minutes" }, "duration"],
      [{ ...newVideo, description: "d".repeat(2001) }, "description"],
      [[], "_"],
      ["just a string", "_"],
    ];
    for (const [json, field] of cases) {
      const res = await req("/api/videos", { method: "POST", cookie: superAdmin, json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(typeof body.error).toBe("string");
      expect(Object.keys(body.details ?? {})).toContain(field);
      if (field === "_") expect(body.error).toBe(VIDEO_MESSAGES.bodyNotObject);
    }
    const notJson = await req("/api/videos", {
      method: "POST",
      cookie: superAdmin,
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    for (const id of ["abc", "0", "-1", "1.5", "3000000000", "9".repeat(30), "0x1", "1e0", "01", "%201"]) {
      const res = await req(`/api/videos/${id}`, { method: "DELETE", cookie: superAdmin });
      expect(res.status, id).toBe(400);
      expect((await res.json()).error).toBe(VIDEO_MESSAGES.idInvalid);
    }
    const edit = await req("/api/videos/3000000000", { method: "PUT", cookie: superAdmin, json: newVideo });
    expect(edit.status).toBe(400);
    // Another spelling of a real video's id never reaches it.
    const [target] = await server.services.videos.list("decor");
    for (const spelled of [`0x${target.id.toString(16)}`, `${target.id}.0`, `0${target.id}`, `${target.id}e0`]) {
      const res = await req(`/api/videos/${spelled}`, { method: "PUT", cookie: superAdmin, json: { ...newVideo, title: "Hijacked" } });
      expect(res.status, spelled).toBe(400);
      expect((await req(`/api/videos/${spelled}`, { method: "DELETE", cookie: superAdmin })).status, spelled).toBe(400);
    }
    expect((await server.services.videos.list("decor")).find((v) => v.id === target.id)).toEqual(target);
    const badCategory = await req("/api/videos?category=nope", { cookie: member });
    expect(badCategory.status).toBe(400);
    const badOrder = await req("/api/videos/order", { method: "PUT", cookie: superAdmin, json: { category: "decor", ids: "1,2" } });
    expect(badOrder.status).toBe(400);
    const wrongMethod = await req("/api/videos", { method: "PATCH", cookie: superAdmin, json: {} });
    expect(wrongMethod.status).toBe(405);
  });

  it("keeps the table unchanged when two admins add the same video at once", async () => {
    const body = { ...newVideo, youtube: "zzzzzzzzzzz", category: "safety" };
    const results = await Promise.all([1, 2, 3].map(() => req("/api/videos", { method: "POST", cookie: superAdmin, json: body })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await server.services.videos.list("safety")).toHaveLength(1);
  });

  describe("rows a change must not touch", () => {
    const db = () => server.services.database.db;
    const GUARDED = ["videos", "app_flags"] as const;
    const idsOf = async (category: string) => (await server.services.videos.list(category)).map((v) => v.id);
    let n = 0;
    /** A video of its own in a category that has others. */
    async function ownVideo(category = "insurance") {
      const youtube = `guardvideo${String.fromCharCode(97 + ++n)}`.slice(0, 11);
      const res = await req("/api/videos", { method: "POST", cookie: superAdmin, json: { ...newVideo, youtube, category } });
      expect(res.status).toBe(201);
      return ((await res.json()) as { video: VideoJson }).video;
    }

    it("adding a video adds one row at the end of its category and changes no other", async () => {
      const guard = await guardRows(db(), GUARDED);
      const video = await ownVideo();
      const changes = await guard.expectChanges({ videos: { added: 1 } });
      expect(changes.videos.added[0]).toMatchObject({ id: video.id, category: "insurance" });
    });

    it("an edit rewrites that video only, also when it moves to another category", async () => {
      const video = await ownVideo();
      let guard = await guardRows(db(), GUARDED);
      const json = { title: "Guarded Edit", youtube: video.youtube_id, category: "insurance", description: "Edited.", duration: "1:00" };
      expect((await req(`/api/videos/${video.id}`, { method: "PUT", cookie: superAdmin, json })).status).toBe(200);
      await guard.expectChanges({ videos: { changed: [video.id], columns: ["description", "duration", "title", "updated_at"] } });

      guard = await guardRows(db(), GUARDED);
      const moved = await req(`/api/videos/${video.id}`, { method: "PUT", cookie: superAdmin, json: { ...json, category: "decor" } });
      expect(moved.status).toBe(200);
      await guard.expectChanges({ videos: { changed: [video.id], columns: ["category", "sort_order", "updated_at"] } });
    });

    it("deleting a video removes that row only", async () => {
      const video = await ownVideo();
      await ownVideo(); // a newer one beside it
      const guard = await guardRows(db(), GUARDED);
      expect((await req(`/api/videos/${video.id}`, { method: "DELETE", cookie: superAdmin })).status).toBe(200);
      await guard.expectChanges({ videos: { removed: [video.id] } });
    });

    it("a reorder changes the order of that category's videos only", async () => {
      const ids = await idsOf("decor");
      expect(ids.length).toBeGreaterThan(2);
      const guard = await guardRows(db(), GUARDED);
      const res = await req("/api/videos/order", {
        method: "PUT",
        cookie: superAdmin,
        json: { category: "decor", ids: [...ids].reverse() },
      });
      expect(res.status).toBe(200);
      // Reversed, every position moves except the middle one of an odd count.
      const moved = ids.filter((id, i) => ids[ids.length - 1 - i] !== id);
      await guard.expectChanges({ videos: { changed: moved, mayChange: ids, columns: ["sort_order", "updated_at"] } });
      expect(await idsOf("decor")).toEqual([...ids].reverse());
    });

    it("a refused change touches nothing", async () => {
      const video = await ownVideo();
      const guard = await guardRows(db(), GUARDED);
      const decor = await idsOf("decor");
      const attempts: Array<[string, string, unknown, number]> = [
        ["PUT", "/api/videos/999999", newVideo, 404],
        ["DELETE", "/api/videos/999999", undefined, 404],
        ["PUT", `/api/videos/${video.id}`, { ...newVideo, title: "" }, 400],
        ["PUT", "/api/videos/order", { category: "decor", ids: decor.slice(1) }, 409],
        ["PUT", "/api/videos/order", { category: "insurance", ids: decor }, 409],
      ];
      for (const [method, path, json, status] of attempts) {
        expect((await req(path, { method, json, cookie: superAdmin })).status, `${method} ${path}`).toBe(status);
      }
      await guard.expectChanges();
    });
  });
});
