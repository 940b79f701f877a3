import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db.server";
import { PRUNE_EVERY, RateLimits } from "./rate-limit.server";

/*
 * The fixed-window limiter on a real (SQLite) database: what it allows and refuses, what it
 * gives back, and what pruning removes. Across instances and under concurrent load, over
 * HTTP and on PostgreSQL too: features/auth/throttle.test.ts.
 */

let dir: string;
let database: DatabaseHandle;
let limits: RateLimits;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-rate-limit-"));
  database = openDatabase({ sqliteFile: path.join(dir, "app.db") });
  await migrateToLatest(database);
  limits = new RateLimits(database);
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = () => database.db.selectFrom("rate_limits").selectAll().orderBy("key").execute();

describe("RateLimiter", () => {
  it("allows the window's points, then refuses with the seconds until the window ends", async () => {
    const limiter = limits.limiter({ name: "rl_allow", points: 3, windowMs: 90_000 });
    expect(limiter.rule).toEqual({ name: "rl_allow", points: 3, windowMs: 90_000 });
    for (let i = 0; i < 3; i++) expect(await limiter.consume("k")).toEqual({ allowed: true });
    const refused = await limiter.consume("k");
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThan(85);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(90);
    expect(await limiter.used("k")).toBe(4);
    // Other keys and other limiters keep their own counts.
    expect(await limiter.consume("other")).toEqual({ allowed: true });
    const sibling = limits.limiter({ name: "rl_sibling", points: 1, windowMs: 90_000 });
    expect(await sibling.consume("k")).toEqual({ allowed: true });
    expect((await rows()).filter((r) => r.key.startsWith("rl_")).map((r) => [r.key, r.points])).toEqual([
      ["rl_allow:k", 4],
      ["rl_allow:other", 1],
      ["rl_sibling:k", 1],
    ]);
  });

  it("takes several points at once", async () => {
    const limiter = limits.limiter({ name: "rl_points", points: 5, windowMs: 60_000 });
    expect(await limiter.consume("k", 4)).toEqual({ allowed: true });
    expect(await limiter.used("k")).toBe(4);
    expect((await limiter.consume("k", 2)).allowed).toBe(false);
  });

  it("gives points back, and starts a key again", async () => {
    const limiter = limits.limiter({ name: "rl_reward", points: 2, windowMs: 60_000 });
    expect(await limiter.used("k")).toBe(0);
    await limiter.consume("k");
    await limiter.consume("k");
    await limiter.reward("k");
    expect(await limiter.used("k")).toBe(1);
    expect(await limiter.consume("k")).toEqual({ allowed: true });
    await limiter.consume("k", 1);
    await limiter.reward("k", 2);
    expect(await limiter.used("k")).toBe(1);
    await limiter.reset("k");
    expect(await limiter.used("k")).toBe(0);
    expect(await limiter.consume("k", 2)).toEqual({ allowed: true });
  });

  it("never counts inside another request's open transaction on SQLite (it waits for it)", async () => {
    // Its own RateLimits: the guard is chosen when one is made.
    const limiter = new RateLimits(database).limiter({ name: "rl_trx", points: 5, windowMs: 60_000 });
    let consumed: Promise<unknown> | undefined;
    await database.db
      .transaction()
      .execute(async (trx) => {
        let settled = false;
        consumed = limiter.consume("k").finally(() => (settled = true));
        // Turns of the event loop in which an unguarded consume would write inside this transaction.
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(settled).toBe(false);
        await trx
          .insertInto("rate_limits")
          .values({ key: "rl_trx:rolled-back", points: 1, expire: Date.now() + 60_000 })
          .execute();
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await consumed).toEqual({ allowed: true });
    expect(await limiter.used("k")).toBe(1);
    expect((await rows()).map((r) => r.key)).not.toContain("rl_trx:rolled-back");
  });

  it("passes on errors that are not a refusal", async () => {
    const closed = openDatabase({ sqliteFile: path.join(dir, "closed.db") });
    await migrateToLatest(closed);
    const limiter = new RateLimits(closed).limiter({ name: "rl_closed", points: 1, windowMs: 60_000 });
    await closed.close();
    await expect(limiter.consume("k")).rejects.toThrow();
  });
});

describe("pruning", () => {
  it("removes the windows that have ended before the given time, and no other", async () => {
    const now = Date.now();
    await database.db
      .insertInto("rate_limits")
      .values([
        { key: "rl_prune:ended", points: 1, expire: now - 1 },
        { key: "rl_prune:now", points: 1, expire: now },
        { key: "rl_prune:open", points: 1, expire: now + 60_000 },
      ])
      .execute();
    await limits.prune(now);
    const left = (await rows()).map((r) => r.key).filter((k) => k.startsWith("rl_prune:"));
    expect(left).toEqual(["rl_prune:now", "rl_prune:open"]);
    await limits.prune(now + 120_000);
    expect((await rows()).filter((r) => r.key.startsWith("rl_prune:"))).toEqual([]);
  });

  it("happens on every 50th attempt of a process, whether allowed or refused", async () => {
    const own = new RateLimits(database);
    const limiter = own.limiter({ name: "rl_every", points: 10, windowMs: 60_000 });
    const ended = () =>
      database.db
        .insertInto("rate_limits")
        .values({ key: "rl_every:ended", points: 1, expire: Date.now() - 1000 })
        .onConflict((oc) => oc.column("key").doUpdateSet({ expire: Date.now() - 1000 }))
        .execute();
    const present = async () => (await rows()).some((r) => r.key === "rl_every:ended");
    await ended();
    for (let i = 1; i < PRUNE_EVERY; i++) await limiter.consume("k");
    expect(await present()).toBe(true);
    // The 50th attempt is refused (10 points) and still prunes.
    expect((await limiter.consume("k")).allowed).toBe(false);
    expect(await present()).toBe(false);
    await ended();
    for (let i = 0; i < PRUNE_EVERY; i++) await limiter.consume("k");
    expect(await present()).toBe(false);
    expect(PRUNE_EVERY).toBe(50);
  });
});
