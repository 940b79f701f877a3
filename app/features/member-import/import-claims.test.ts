import { spawnSync } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import crypto from "node:crypto";
import { ABANDONED_AFTER_MS, contentDigest, ImportClaims, type HeldClaim } from "./import-claims.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("member upload claims", (dialect) => {
  let ctx: TestContext;
  let actorId: number;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    actorId = (await ctx.services.auth.createStaff("claims-admin", "correct horse battery", "limited_admin")).id;
  });
  afterAll(() => ctx.close());

  it("a claim kept alive by its import stays; one whose process died is given up within seconds, so a retry imports", async () => {
    let clock = Date.parse("2026-11-25T10:00:00Z");
    const claims = new ImportClaims(ctx.services.database.db, { now: () => clock });
    const held = (await claims.claim(actorId, "digest-of-a-big-file")) as HeldClaim;
    expect(held.kind).toBe("first");
    const rows = () =>
      ctx.services.database.db
        .selectFrom("member_import_claims")
        .select("token")
        .where("content_digest", "=", "digest-of-a-big-file")
        .execute();

    // Still importing after a long time: renewed, so another upload's sweep leaves it.
    clock += 4 * ABANDONED_AFTER_MS;
    await claims.renew(held);
    clock += ABANDONED_AFTER_MS - 1000;
    expect((await claims.claim(actorId, "another-file")).kind).toBe("first");
    expect(await rows()).toEqual([{ token: held.token }]);

    // Its process died: no renewal for longer than ABANDONED_AFTER_MS. The same file posted again imports.
    clock += 2000;
    const retry = await claims.claim(actorId, "digest-of-a-big-file");
    expect(retry.kind).toBe("first");
    expect((retry as HeldClaim).token).not.toBe(held.token);
  });

  it("a claim of a process of this machine that is gone is given up at once; one of this process waits for its answer", async () => {
    const db = ctx.services.database.db;
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await db
      .insertInto("member_import_claims")
      .values({
        actor_id: actorId,
        content_digest: "digest-of-a-killed-import",
        token: `${os.hostname()}/${gone}/p/x`,
        claimed_at: new Date().toISOString(),
        finished_at: null,
        answer: null,
      })
      .execute();
    // The retry after the restart imports at once (the poll would otherwise wait ABANDONED_AFTER_MS).
    const claims = new ImportClaims(db, { pollMs: 60_000 });
    const retry = await claims.claim(actorId, "digest-of-a-killed-import");
    expect(retry.kind).toBe("first");
    expect((retry as HeldClaim).token).toMatch(new RegExp(`^${os.hostname()}/${process.pid}/`));

    // A repeat of an upload this process is importing waits for its answer.
    const repeat = new ImportClaims(db, { pollMs: 10 }).claim(actorId, "digest-of-a-killed-import");
    let settled = false;
    void repeat.then(() => (settled = true));
    // Several of its looks later it is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    await claims.finish(retry as HeldClaim, { status: 200, body: { success: true } });
    expect(await repeat).toEqual({ kind: "repeat", answer: { status: 200, body: { success: true } } });
  });

  it("gives a dead process's claim up within seconds, not minutes", () => {
    expect(ABANDONED_AFTER_MS).toBeLessThanOrEqual(60_000);
  });

  it("keys an upload by the SHA-256 of its UTF-8 bytes, the same for its text and for the buffers it arrived in", () => {
    const text = "certificate_number,birthdate\nÅ1,1980-01-01\n";
    const bytes = Buffer.from(text, "utf8");
    const expected = crypto.createHash("sha256").update(bytes).digest("hex");
    expect(contentDigest(text)).toBe(expected);
    expect(contentDigest([bytes.subarray(0, 30), bytes.subarray(30)])).toBe(expected);
    expect(contentDigest(text + " ")).not.toBe(expected);
  });
});
