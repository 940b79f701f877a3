import crypto from "node:crypto";
import os from "node:os";

/** This process, told apart from an earlier process that had the same pid (a restarted container's pid 1). */
const PROCESS_ID = crypto.randomUUID();

/**
 * A name for something this process holds in the shared database (the ingest lease, a member
 * upload's claim): "host/pid/process/random". Another process on the same machine can tell from
 * it whether the holder still runs (see isGoneLocalHolder) and take over at once instead of
 * waiting for the hold to run out.
 */
export function newHolderId(): string {
  return `${os.hostname()}/${process.pid}/${PROCESS_ID}/${crypto.randomUUID()}`;
}

/**
 * Whether a holder was a process of this machine that no longer runs: its pid is gone, or it
 * is this process's pid but an earlier process. Never true for another machine's holder (its
 * process cannot be seen from here) nor for this process's own.
 */
export function isGoneLocalHolder(holder: string): boolean {
  const [host, pidText, processId] = holder.split("/");
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return processId !== PROCESS_ID;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user has that pid now; it is not ours, so ours is gone.
    return (err as NodeJS.ErrnoException).code === "ESRCH" || (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
