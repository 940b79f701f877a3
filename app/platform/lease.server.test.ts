import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../tests/support/test-app";
import { openDatabase, type DatabaseHandle } from "./db.server";
import { Lease } from "./lease.server";
import { newHolderId } from "./process-holder.server";

/*
 * The one lease (issue 43) on a real database, two instances each with its own connection (or
 * pool) to it: one holder at a time, renewed only by its holder, taken over once it runs out.
 * The reminder sender's own test shows it stopping after its batch once the lease was taken
 * over (reminders-outbox.test.ts); the ingest's, a run that follows another's (ingest.test.ts).
 */
describeEachDatabase("a lease", (dialect) => {
  let ctx: TestContext;
  let other: DatabaseHandle;
  let seq = 0;
  /** The same lease as seen by this instance and by another one. */
  const leaseOnBoth = () => {
    const name = `test_job_${++seq}`;
    return [new Lease(ctx.services.database.db, name), new Lease(other.db, name)] as const;
  };
  const t0 = Date.parse("2027-03-20T16:00:00Z");
  const at = (ms: number) => new Date(t0 + ms).toISOString();

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    const { database } = ctx.services;
    other =
      database.dialect === "sqlite"
        ? openDatabase({ sqliteFile: path.join(ctx.dataDir, "app.db") })
        : openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: database.schema, poolSize: 4 });
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  it("A takes it for 1 s; B takes it over once it ran out; A can neither renew nor release it, and it still names B", async () => {
    const [a, b] = leaseOnBoth();
    expect(await a.read()).toBeNull();
    expect(await a.take("instance-a", 1000, t0)).toBe(true);
    expect(await a.read()).toEqual({ holder: "instance-a", expiresAt: at(1000), runId: null });
    // While A's time runs, nobody else takes it, and A does not take it twice.
    expect(await b.take("instance-b", 1000, t0 + 500)).toBe(false);
    expect(await a.take("instance-a", 1000, t0 + 500)).toBe(false);
    expect(await a.renew("instance-a", 1000, { now: t0 + 500 })).toBe(true);
    expect(await b.take("instance-b", 1000, t0 + 1400)).toBe(false);
    // A stalls past its time (1.5 s); at 2.1 s B takes it over.
    expect(await b.take("instance-b", 20_000, t0 + 2100)).toBe(true);
    expect(await a.renew("instance-a", 60_000, { now: t0 + 2200 })).toBe(false);
    expect(await a.read()).toEqual({ holder: "instance-b", expiresAt: at(22_100), runId: null });
    await a.release("instance-a");
    expect(await b.read()).toEqual({ holder: "instance-b", expiresAt: at(22_100), runId: null });
    expect(await a.take("instance-a", 1000, t0 + 2300)).toBe(false);
    // B goes on, then lets go: the next taker gets it at once.
    expect(await b.renew("instance-b", 20_000, { now: t0 + 2400 })).toBe(true);
    await b.release("instance-b");
    expect(await a.read()).toEqual({ holder: null, expiresAt: null, runId: null });
    expect(await a.take("instance-a", 1000, t0 + 2500)).toBe(true);
  });

  it("instances taking it at the same moment: exactly one gets it, free or run out", async () => {
    const [a, b] = leaseOnBoth();
    const race = (now: number) => Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).take(`instance-${now}-${i}`, 1000, now)));
    const first = await race(t0);
    expect(first.filter(Boolean)).toHaveLength(1);
    const winner = `instance-${t0}-${first.indexOf(true)}`;
    expect((await a.read())?.holder).toBe(winner);
    // Its time runs out; the takeover is raced too.
    const second = await race(t0 + 5000);
    expect(second.filter(Boolean)).toHaveLength(1);
    expect((await b.read())?.holder).toBe(`instance-${t0 + 5000}-${second.indexOf(true)}`);
    expect(await a.renew(winner, 1000, { now: t0 + 5001 })).toBe(false);
  });

  it("names its holder's run while held; a new take forgets it, a release keeps it for those who follow the run", async () => {
    const [a, b] = leaseOnBoth();
    expect(await a.take("instance-a", 1000, t0)).toBe(true);
    expect(await a.renew("instance-a", 1000, { now: t0 + 100, runId: 41 })).toBe(true);
    expect(await b.read()).toEqual({ holder: "instance-a", expiresAt: at(1100), runId: 41 });
    // Renewed without a run: the run stays named.
    expect(await a.renew("instance-a", 1000, { now: t0 + 200 })).toBe(true);
    expect((await b.read())?.runId).toBe(41);
    // The holder that lost it cannot name a run in it.
    expect(await b.take("instance-b", 1000, t0 + 5000)).toBe(true);
    expect(await b.read()).toEqual({ holder: "instance-b", expiresAt: at(6000), runId: null });
    expect(await a.renew("instance-a", 1000, { now: t0 + 5100, runId: 99 })).toBe(false);
    expect(await b.renew("instance-b", 1000, { now: t0 + 5100, runId: 42 })).toBe(true);
    await b.release("instance-b");
    expect(await a.read()).toEqual({ holder: null, expiresAt: null, runId: 42 });
  });

  it("leases of different names are held apart", async () => {
    const [ingest] = leaseOnBoth();
    const [reminders] = leaseOnBoth();
    expect(await ingest.take("instance-a", 60_000, t0)).toBe(true);
    expect(await reminders.take("instance-b", 60_000, t0)).toBe(true);
    await ingest.release("instance-b");
    expect((await ingest.read())?.holder).toBe("instance-a");
    expect(await reminders.renew("instance-a", 60_000, { now: t0 })).toBe(false);
    expect((await reminders.read())?.holder).toBe("instance-b");
  });

  it("a holder that was a process of this machine and died is freed at once; a live one, or another machine's, is not", async () => {
    const [a, b] = leaseOnBoth();
    const dead = `${os.hostname()}/${process.pid}/an-earlier-process/x`;
    expect(await a.freeIfHolderGone()).toBeNull();
    expect(await a.take(dead, 60_000, t0)).toBe(true);
    expect(await a.renew(dead, 60_000, { now: t0, runId: 7 })).toBe(true);
    expect(await b.freeIfHolderGone()).toBe(dead);
    expect(await a.read()).toEqual({ holder: null, expiresAt: null, runId: null });
    const live = newHolderId();
    expect(await a.take(live, 60_000, t0)).toBe(true);
    expect(await b.freeIfHolderGone()).toBeNull();
    expect((await a.read())?.holder).toBe(live);
    await a.release(live);
    expect(await a.take("another-machine/1/p/x", 60_000, t0)).toBe(true);
    expect(await b.freeIfHolderGone()).toBeNull();
    expect((await a.read())?.holder).toBe("another-machine/1/p/x");
  });
});
