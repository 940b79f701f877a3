import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CASE_LOOKUP, createCaseLookup, maskCaseNumber, type CaseLookupDeps } from "./case-lookup-client";

/**
 * The lookup's rules with the network replaced by a scripted answer list (the real request
 * path runs in the browser tests): retry once after 200-500 ms unless aborted, 8 s timeout,
 * one-hour cache.
 */
function setup(answers: (() => Promise<Response>)[]) {
  const calls: string[] = [];
  const waits: number[] = [];
  let clock = 0;
  const deps: CaseLookupDeps = {
    fetch: (async (url: string) => {
      calls.push(url);
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      return next();
    }) as unknown as typeof fetch,
    now: () => clock,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  return { lookup: createCaseLookup(deps), calls, waits, advance: (ms: number) => (clock += ms) };
}
const json = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });
const fail = () => Promise.reject(new TypeError("Failed to fetch"));

describe("case lookup client", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("answers success, not found, and caches both for an hour", async () => {
    const t = setup([
      json(200, { success: true, applicant: { email: "a@b.co" } }),
      json(404, { success: false }),
      json(200, { success: true, applicant: {} }),
    ]);
    const signal = new AbortController().signal;
    expect(await t.lookup("12345", signal)).toEqual({ status: "success", applicant: { email: "a@b.co" } });
    expect(await t.lookup("99999", signal)).toEqual({ status: "not_found" });
    expect(await t.lookup("12345", signal)).toEqual({ status: "success", applicant: { email: "a@b.co" } });
    expect(t.calls).toEqual(["/api/cases/12345", "/api/cases/99999"]);
    t.advance(CASE_LOOKUP.cacheMs);
    expect(await t.lookup("12345", signal)).toEqual({ status: "success", applicant: {} });
    expect(t.calls).toHaveLength(3);
  });

  it("retries a failure once after 200-500 ms, then reports an error (not cached)", async () => {
    const t = setup([fail, json(500, {}), fail, json(200, { success: true, applicant: {} })]);
    const signal = new AbortController().signal;
    expect(await t.lookup("12345", signal)).toEqual({ status: "error" });
    expect(t.waits).toEqual([350]);
    expect(await t.lookup("12345", signal)).toEqual({ status: "success", applicant: {} });
    expect(t.calls).toHaveLength(4);
  });

  it("does not retry a lookup that was aborted", async () => {
    const controller = new AbortController();
    const t = setup([
      () => {
        controller.abort();
        return Promise.reject(new DOMException("aborted", "AbortError"));
      },
    ]);
    expect(await t.lookup("12345", controller.signal)).toEqual({ status: "error" });
    expect(t.calls).toHaveLength(1);
    expect(t.waits).toEqual([]);
  });

  it("gives up on a request after 8 s and retries it", async () => {
    let aborted = 0;
    const hang = (init?: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => {
          aborted++;
          reject(new DOMException("timeout", "AbortError"));
        }),
      );
    const calls: number[] = [];
    const lookup = createCaseLookup({
      fetch: ((_url: string, init?: RequestInit) => {
        calls.push(Date.now());
        return hang(init);
      }) as unknown as typeof fetch,
      now: () => Date.now(),
      random: () => 0,
      sleep: async () => {},
    });
    const result = lookup("12345", new AbortController().signal);
    await vi.advanceTimersByTimeAsync(CASE_LOOKUP.timeoutMs - 1);
    expect(aborted).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted).toBe(1);
    await vi.advanceTimersByTimeAsync(CASE_LOOKUP.timeoutMs);
    expect(await result).toEqual({ status: "error" });
    expect(calls).toHaveLength(2);
  });

  it("masks case numbers to their last 4 digits", () => {
    expect(maskCaseNumber("12345678")).toBe("****5678");
    expect(maskCaseNumber("12345")).toBe("*2345");
  });
});
