import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import firstCatalogue from "../../../tests/fixtures/first-video-catalogue.json";
import { DEFAULT_VIDEOS, SPEC_VIDEO_COUNTS } from "./default-videos";
import { m0011_video_catalogue_placements } from "~/platform/migrations/0011_video_catalogue_placements";

const key = (v: { category: string; youtubeId?: string; youtube_id?: string }) => `${v.category}/${v.youtubeId ?? v.youtube_id}`;

/** A site that seeded the first catalogue gets every default video where the new one puts it. */
describeEachDatabase("migration 0011: video catalogue placements", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());
  const db = () => ctx.services.database.db;

  async function seedFirstCatalogue(seededAt: string) {
    await db().deleteFrom("videos").execute();
    await db().deleteFrom("app_flags").execute();
    await db().insertInto("app_flags").values({ key: "default_videos_seeded", created_at: seededAt }).execute();
    const order = new Map<string, number>();
    for (const v of firstCatalogue) {
      const n = order.get(v.category) ?? 0;
      order.set(v.category, n + 1);
      await db()
        .insertInto("videos")
        .values({
          category: v.category,
          title: v.title,
          description: v.description,
          youtube_id: v.youtubeId,
          duration: null,
          sort_order: n,
          created_at: seededAt,
          updated_at: seededAt,
        })
        .execute();
    }
  }

  it("turns an untouched first catalogue into the new one, at the spec's counts", async () => {
    await seedFirstCatalogue("2026-01-05T10:00:00.000Z");
    await m0011_video_catalogue_placements.up(db(), dialect);
    const rows = await db().selectFrom("videos").selectAll().orderBy("category").orderBy("sort_order").execute();
    expect(new Set(rows.map(key))).toEqual(new Set(DEFAULT_VIDEOS.map(key)));
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.category] = (counts[r.category] ?? 0) + 1;
    expect(counts).toEqual(SPEC_VIDEO_COUNTS);
    // Each category's order has no duplicate positions.
    for (const category of Object.keys(counts)) {
      const orders = rows.filter((r) => r.category === category).map((r) => r.sort_order);
      expect(new Set(orders).size, category).toBe(orders.length);
    }
    const insurance = rows.filter((r) => r.category === "insurance").map((r) => r.title);
    expect(insurance).not.toContain("How to Repair a Cracked Floor Joist");
    expect(insurance).toContain("What Your Home Insurance Should Cover");
  });

  it("keeps a video staff edited or added, and runs again without change", async () => {
    await seedFirstCatalogue("2026-01-05T10:00:00.000Z");
    await db()
      .updateTable("videos")
      .set({ description: "Our members asked for this one.", updated_at: "2026-03-01T09:00:00.000Z" })
      .where("category", "=", "insurance")
      .where("youtube_id", "=", "23amU7EWy7g")
      .execute();
    await m0011_video_catalogue_placements.up(db(), dialect);
    const kept = await db()
      .selectFrom("videos")
      .select("title")
      .where("category", "=", "insurance")
      .where("youtube_id", "=", "23amU7EWy7g")
      .execute();
    expect(kept).toHaveLength(1);
    const before = await db().selectFrom("videos").selectAll().orderBy("id").execute();
    await m0011_video_catalogue_placements.up(db(), dialect);
    expect(await db().selectFrom("videos").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("leaves a site that never seeded alone (it seeds the new catalogue on its first start)", async () => {
    await db().deleteFrom("videos").execute();
    await db().deleteFrom("app_flags").execute();
    await m0011_video_catalogue_placements.up(db(), dialect);
    expect(await db().selectFrom("videos").selectAll().execute()).toEqual([]);
    expect(await ctx.services.videos.seedDefaults()).toBe(DEFAULT_VIDEOS.length);
  });
});
