import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { guardRows } from "../support/row-guard";
import { createTestContext, describeEachDatabase, type TestContext } from "../support/test-app";

/** The row guard itself: it must fail on every kind of change nobody expected. */
describeEachDatabase("row guard", (dialect) => {
  let ctx: TestContext;
  let ids: number[];
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());
  const db = () => ctx.services.database.db;

  beforeEach(async () => {
    await db().deleteFrom("cases").execute();
    const now = new Date().toISOString();
    const rows = await db()
      .insertInto("cases")
      .values(["10001", "10002", "10003"].map((case_number) => ({ case_number, first_name: "Ann", created_at: now, updated_at: now })))
      .returning("id")
      .execute();
    ids = rows.map((r) => Number(r.id));
  });

  const rename = (id: number, first_name: string) => db().updateTable("cases").set({ first_name }).where("id", "=", id).execute();
  const addCase = () =>
    db()
      .insertInto("cases")
      .values({ case_number: "10009", created_at: "2024-01-01T00:00:00.000Z", updated_at: "2024-01-01T00:00:00.000Z" })
      .execute();

  it("passes when exactly the expected rows changed, and answers what changed", async () => {
    let guard = await guardRows(db(), ["cases"]);
    await guard.expectChanges();
    await rename(ids[0], "Bo");
    await db().deleteFrom("cases").where("id", "=", ids[1]).execute();
    await addCase();
    const changes = await guard.expectChanges({ cases: { added: 1, removed: [ids[1]], changed: [ids[0]], columns: ["first_name"] } });
    expect(changes.cases.changed).toEqual([expect.objectContaining({ columns: ["first_name"] })]);
    expect(changes.cases.changed[0].after.first_name).toBe("Bo");
    expect(changes.cases.added[0].case_number).toBe("10009");

    guard = await guardRows(db(), ["cases"]);
    await guard.expectChanges({ cases: { mayChange: [ids[0]] } });
  });

  it("fails on a row changed, removed or added that nobody expected, naming the row and column", async () => {
    let guard = await guardRows(db(), ["cases"]);
    await rename(ids[2], "Ann "); // one trailing space
    await expect(guard.expectChanges()).rejects.toThrow(/rows of cases[\s\S]*first_name: "Ann" -> "Ann "/);

    guard = await guardRows(db(), ["cases"]);
    await db().deleteFrom("cases").where("id", "=", ids[2]).execute();
    await expect(guard.expectChanges({ cases: { mayChange: [ids[2]] } })).rejects.toThrow(/rows of cases/);

    guard = await guardRows(db(), ["cases"]);
    await addCase();
    await expect(guard.expectChanges()).rejects.toThrow(/rows of cases/);
  });

  it("fails when an expected change did not happen, or a change reached another column", async () => {
    let guard = await guardRows(db(), ["cases"]);
    await expect(guard.expectChanges({ cases: { changed: [ids[0]] } })).rejects.toThrow(/rows of cases/);
    await expect(guard.expectChanges({ cases: { removed: [ids[0]] } })).rejects.toThrow(/rows of cases/);
    await expect(guard.expectChanges({ cases: { added: 1 } })).rejects.toThrow(/rows of cases/);

    guard = await guardRows(db(), ["cases"]);
    await db().updateTable("cases").set({ first_name: "Cy", last_name: "Lee" }).where("id", "=", ids[0]).execute();
    await expect(guard.expectChanges({ cases: { changed: [ids[0]], columns: ["first_name"] } })).rejects.toThrow(
      /columns changed in cases/,
    );
  });

  it("refuses an expectation for a table it did not snapshot", async () => {
    const guard = await guardRows(db(), ["cases"]);
    await expect(guard.expectChanges({ users: { added: 1 } })).rejects.toThrow(/users was not snapshotted/);
  });
});
