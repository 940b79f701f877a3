import { DEFAULT_FETCH_LIMITS, SafeFetcher, type SafeFetchLimits } from "~/platform/safe-fetch.server";
import { applicantFromAnswer } from "./case-shapes";
import type { CaseApplicant } from "./contract";

/**
 * The outside case lookup endpoint (CASE_LOOKUP_URL), called by the server with
 * ?case=<digits>: the hosted script endpoint of the spec, minus the JSONP in the browser.
 * Fetched through the feed reader's safe fetcher: bounded time and size, and no connection
 * (first or after a redirect) to a private address unless explicitly allowed.
 */
export const CASE_SOURCE_LIMITS: SafeFetchLimits = {
  ...DEFAULT_FETCH_LIMITS,
  // Well inside the browser's 8 s lookup timeout.
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
  maxRedirects: 3,
  userAgent: "AHA-CaseLookup/1.0",
};

export class CaseSourceError extends Error {}

export class ExternalCaseSource {
  private fetcher: SafeFetcher;

  constructor(
    private baseUrl: string,
    limits: Partial<SafeFetchLimits> = {},
  ) {
    this.fetcher = new SafeFetcher({ ...CASE_SOURCE_LIMITS, ...limits });
  }

  close() {
    this.fetcher.close();
  }

  /** The case's form fields, or null when the source does not know the case. Throws CaseSourceError when it cannot answer. */
  async lookup(caseNumber: string): Promise<CaseApplicant | null> {
    const url = new URL(this.baseUrl);
    url.searchParams.set("case", caseNumber);
    let body: Buffer;
    try {
      const result = await this.fetcher.fetch(url.href, { etag: null, lastModified: null });
      if (result.status !== "ok") throw new CaseSourceError("Unexpected answer from the case lookup source");
      body = result.body;
    } catch (err) {
      if (err instanceof CaseSourceError) throw err;
      // The source saying it has no such case is an answer, not a failure.
      if (err instanceof Error && /^HTTP (404|410)\b/.test(err.message)) return null;
      throw new CaseSourceError(err instanceof Error ? err.message : String(err), { cause: err });
    }
    return applicantFromAnswer(parseAnswer(body.toString("utf8")));
  }
}

/** JSON, or JSON wrapped in a JSONP callback (the hosted script endpoint's habit); anything else is "not found". */
export function parseAnswer(text: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  const jsonp = /^[A-Za-z_$][\w$.]*\s*\(([\s\S]*)\)\s*;?$/.exec(trimmed);
  try {
    return JSON.parse(jsonp ? jsonp[1] : trimmed);
  } catch {
    return null;
  }
}
