import { describe, expect, it } from "vitest";
import { HttpError } from "./http.server";
import { UniqueViolationError } from "./db.server";

describe("error brands", () => {
  it("recognise errors made by another copy of the module (the page bundle has its own)", async () => {
    // A fresh module instance, as the React Router server build has.
    const copy = await import("./http.server?copy" as string).catch(() => null);
    const foreign = copy ? new copy.HttpError(429, "slow down") : Object.assign(new Error("x"), { [Symbol.for("aha.HttpError")]: true });
    expect(foreign instanceof HttpError).toBe(true);
    expect(new HttpError(400, "bad") instanceof HttpError).toBe(true);
    expect(new Error("plain") instanceof HttpError).toBe(false);
    expect({ status: 400 } instanceof HttpError).toBe(false);
    expect(new UniqueViolationError(null) instanceof UniqueViolationError).toBe(true);
    expect(new HttpError(409, "dup") instanceof UniqueViolationError).toBe(false);
  });
});
