import { useCallback, useEffect, useRef, useState } from "react";
import { useDebouncedCallback } from "~/components/useDebouncedCallback";
import { CASE_NUMBER_MIN_DIGITS, type CaseApplicant } from "./contract";
import { digitsOnly } from "~/domain/formats";

/**
 * The application's case lookup in the browser (public-side spec, sections 4, 8 and 9):
 * digits only, at least 5; 500 ms after the last keystroke; 8 s timeout; one retry after a
 * random 200-500 ms unless the lookup was aborted; answers kept an hour per case number;
 * analytics events with the case number masked to its last 4 digits. It asks our own
 * GET /api/cases/:caseNumber (DESIGN.md, deliberate difference 4).
 */

export const CASE_LOOKUP = {
  debounceMs: 500,
  timeoutMs: 8000,
  retryMinMs: 200,
  retryMaxMs: 500,
  cacheMs: 3_600_000,
} as const;

export type CaseLookupStatus = "idle" | "loading" | "success" | "not_found" | "error";

export const CASE_STATUS_TEXT: Record<Exclude<CaseLookupStatus, "idle">, string> = {
  loading: "Looking up case…",
  success: "Case loaded",
  not_found: "Case not found",
  error: "Lookup error—try again",
};

export type CaseLookupResult = { status: "success"; applicant: CaseApplicant } | { status: "not_found" } | { status: "error" };

export interface CaseLookupDeps {
  fetch: typeof fetch;
  now: () => number;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultDeps = (): CaseLookupDeps => ({
  fetch: (...args) => fetch(...args),
  now: () => Date.now(),
  random: Math.random,
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      });
    }),
});

class LookupFailed extends Error {}

/** "1234567" -> "***4567". */
export function maskCaseNumber(caseNumber: string): string {
  return `${"*".repeat(Math.max(0, caseNumber.length - 4))}${caseNumber.slice(-4)}`;
}

export function pushLookupEvent(event: "case_lookup_success" | "case_lookup_not_found", caseNumber: string) {
  const w = window as unknown as { dataLayer?: unknown[] };
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push({ event, case_number: maskCaseNumber(caseNumber) });
}

/** A lookup function with its own one-hour cache; the page uses one per browser tab. */
export function createCaseLookup(deps: CaseLookupDeps = defaultDeps()) {
  const cache = new Map<string, { at: number; result: CaseLookupResult }>();

  async function once(caseNumber: string, signal: AbortSignal): Promise<CaseLookupResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), CASE_LOOKUP.timeoutMs);
    const both = new AbortController();
    const stop = () => both.abort();
    signal.addEventListener("abort", stop);
    timeout.signal.addEventListener("abort", stop);
    try {
      const res = await deps.fetch(`/api/cases/${encodeURIComponent(caseNumber)}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: both.signal,
      });
      if (res.status === 404) return { status: "not_found" };
      if (!res.ok) throw new LookupFailed(`HTTP ${res.status}`);
      const body = (await res.json()) as { success?: boolean; applicant?: CaseApplicant };
      if (!body?.success || typeof body.applicant !== "object" || body.applicant === null) return { status: "not_found" };
      return { status: "success", applicant: body.applicant };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }

  return async function lookup(caseNumber: string, signal: AbortSignal): Promise<CaseLookupResult> {
    const hit = cache.get(caseNumber);
    if (hit && deps.now() - hit.at < CASE_LOOKUP.cacheMs) return hit.result;
    let result: CaseLookupResult;
    try {
      result = await once(caseNumber, signal);
    } catch {
      if (signal.aborted) return { status: "error" };
      const wait = CASE_LOOKUP.retryMinMs + deps.random() * (CASE_LOOKUP.retryMaxMs - CASE_LOOKUP.retryMinMs);
      await deps.sleep(wait, signal);
      if (signal.aborted) return { status: "error" };
      try {
        result = await once(caseNumber, signal);
      } catch {
        return { status: "error" };
      }
    }
    cache.set(caseNumber, { at: deps.now(), result });
    return result;
  };
}

let shared: ReturnType<typeof createCaseLookup> | null = null;

/**
 * The case number field's lookup: call `changed` with what is typed. Below 5 digits the
 * status is idle; a newer keystroke cancels the lookup in flight.
 */
export function useCaseLookup(onFound: (applicant: CaseApplicant) => void) {
  const [status, setStatus] = useState<CaseLookupStatus>("idle");
  const inFlight = useRef<AbortController | null>(null);
  const onFoundRef = useRef(onFound);
  onFoundRef.current = onFound;

  const { schedule: scheduleLookup, cancel: cancelLookup } = useDebouncedCallback(async (caseNumber: string) => {
    const controller = new AbortController();
    inFlight.current = controller;
    setStatus("loading");
    shared ??= createCaseLookup();
    const result = await shared(caseNumber, controller.signal);
    if (controller.signal.aborted) return;
    inFlight.current = null;
    setStatus(result.status);
    if (result.status === "success") {
      pushLookupEvent("case_lookup_success", caseNumber);
      onFoundRef.current(result.applicant);
    } else if (result.status === "not_found") {
      pushLookupEvent("case_lookup_not_found", caseNumber);
    }
  }, CASE_LOOKUP.debounceMs);

  const cancel = useCallback(() => {
    cancelLookup();
    inFlight.current?.abort();
    inFlight.current = null;
  }, [cancelLookup]);
  useEffect(() => cancel, [cancel]);

  const changed = useCallback(
    (raw: string) => {
      cancel();
      const caseNumber = digitsOnly(raw);
      if (caseNumber.length < CASE_NUMBER_MIN_DIGITS) {
        setStatus("idle");
        return;
      }
      scheduleLookup(caseNumber);
    },
    [cancel, scheduleLookup],
  );

  return { status, changed };
}
