import { describe, expect, it } from "vitest";
import { z } from "~/platform/zod";
import { DomainError, parseInput } from "./errors";
import { expectedError, HttpError, toErrorResponse } from "./http.server";

describe("domain errors as HTTP", () => {
  it("each kind has its status; the message and details go to the caller", () => {
    const cases: Array<[DomainError, number]> = [
      [DomainError.invalid("Name is required", { name: "Name is required" }), 400],
      [DomainError.unauthenticated("Invalid credentials"), 401],
      [DomainError.forbidden("This account is inactive."), 403],
      [DomainError.notFound("Feed not found"), 404],
      [DomainError.conflict("A feed with this URL already exists"), 409],
      [DomainError.rateLimited("Too many attempts", 900), 429],
      [DomainError.unavailable("The case lookup is unavailable"), 502],
    ];
    for (const [err, status] of cases) {
      const answer = toErrorResponse(err);
      expect(answer.status, err.kind).toBe(status);
      expect(answer.body.error).toBe(err.message);
    }
    expect(toErrorResponse(cases[0][0]).body.details).toEqual({ name: "Name is required" });
    expect(toErrorResponse(cases[5][0]).headers).toEqual({ "Retry-After": "900" });
    expect(toErrorResponse(cases[4][0]).headers).toBeUndefined();
  });

  it("a fault of ours is a 500 that says nothing of itself", () => {
    expect(toErrorResponse(new Error("secret detail"))).toEqual({ status: 500, body: { success: false, error: "Internal server error" } });
    expect(expectedError(new Error("secret detail"))).toBeNull();
    expect(expectedError(new HttpError(503, "down"))).toBeNull();
    expect(expectedError(new HttpError(405, "Method not allowed", undefined, { Allow: "GET" }))).toEqual({
      status: 405,
      message: "Method not allowed",
      details: undefined,
      headers: { Allow: "GET" },
    });
  });

  it("parseInput refuses with the first problem and every field's", () => {
    const schema = z.object({ name: z.string().min(1, "Name is required"), age: z.number({ message: "Age must be a number" }) });
    expect(parseInput(schema, { name: "Lee", age: 3 })).toEqual({ name: "Lee", age: 3 });
    try {
      parseInput(schema, { name: "", age: "x" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({
        kind: "invalid",
        message: "Name is required",
        details: { name: "Name is required", age: "Age must be a number" },
      });
    }
  });
});
