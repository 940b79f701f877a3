import type { Coverage, CoverageState, CoverageStatusName } from "./coverage";

/** The coverage statuses staff filter and count members by, in the order a membership goes through them. */
export const COVERAGE_KINDS = [
  "no-plan",
  "awaiting-first-payment",
  "starts",
  "covered",
  "past-due",
  "lapsed",
  "cancelled",
] as const satisfies ReadonlyArray<CoverageState["kind"]>;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

/** Each status's name, as the rule (coverage.ts) words it: "Starts" stands for "Starts <date>". */
export const COVERAGE_KIND_NAMES: Record<CoverageKind, CoverageStatusName> = {
  "no-plan": "No plan on record",
  "awaiting-first-payment": "Awaiting first payment",
  starts: "Starts",
  covered: "Covered",
  "past-due": "Past due",
  lapsed: "Lapsed",
  cancelled: "Cancelled",
};

export type CoverageCounts = Record<CoverageKind, number>;

/** How many of `coverages` are in each status (every status present, zeros included). */
export function countByStatus(coverages: Iterable<Pick<Coverage, "state">>): CoverageCounts {
  const counts = Object.fromEntries(COVERAGE_KINDS.map((k) => [k, 0])) as CoverageCounts;
  for (const c of coverages) counts[c.state.kind]++;
  return counts;
}

/** What a member list row shows of a member's coverage. */
export interface CoverageSummary {
  status: CoverageKind;
  /** "Covered", "Starts March 1, 2028", ... */
  label: string;
  paidThrough: string | null;
}

export const coverageSummary = (c: Coverage): CoverageSummary => ({ status: c.state.kind, label: c.label, paidThrough: c.paidThrough });
