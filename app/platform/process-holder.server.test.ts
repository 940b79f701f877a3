import { spawnSync } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { isGoneLocalHolder, newHolderId } from "./process-holder.server";

describe("holders of shared things", () => {
  it("names this machine, this process and the hold", () => {
    const id = newHolderId();
    expect(id).toMatch(new RegExp(`^${os.hostname()}/${process.pid}/[0-9a-f-]{36}/[0-9a-f-]{36}$`));
    expect(newHolderId()).not.toBe(id);
    expect(newHolderId().split("/")[2]).toBe(id.split("/")[2]);
  });

  it("tells a holder whose process is gone from a live one, on this machine only", () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(isGoneLocalHolder(`${os.hostname()}/${gone}/p/x`)).toBe(true);
    // This pid, but an earlier process (a restarted container's pid 1).
    expect(isGoneLocalHolder(`${os.hostname()}/${process.pid}/an-earlier-process/x`)).toBe(true);
    expect(isGoneLocalHolder(`${os.hostname()}/${process.pid}/x`)).toBe(true);
    // This very process: alive.
    expect(isGoneLocalHolder(newHolderId())).toBe(false);
    expect(isGoneLocalHolder(`${os.hostname()}/${process.ppid}/p/x`)).toBe(false);
    expect(isGoneLocalHolder(`another-machine/${gone}/p/x`)).toBe(false);
    expect(isGoneLocalHolder("a-holder-of-an-older-version")).toBe(false);
    expect(isGoneLocalHolder(`${os.hostname()}/0/p/x`)).toBe(false);
    expect(isGoneLocalHolder(`${os.hostname()}/abc/p/x`)).toBe(false);
  });
});
