import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import { ABANDONED_AFTER_MS, ImportClaims, type HeldClaim } from "./import-claims.server";

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

  it("gives a dead process's claim up within seconds, not minutes", () => {
    expect(ABANDONED_AFTER_MS).toBeLessThanOrEqual(60_000);
  });
});
