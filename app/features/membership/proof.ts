/**
 * What a proof of coverage states (issue 39): the card on My account and the public check its
 * QR code opens say the same thing, from the same rule (coverage.ts), in the same words. One
 * date, named for what it is: "Covered through" (the last day paid for, or the day before a
 * cancellation already recorded, whichever comes first), "Coverage starts" (paid, not begun),
 * "Coverage ended" (past due, lapsed or cancelled after coverage began).
 */
import { addDays, formatLongDay, type Coverage, type TermEvent } from "./coverage";

export type ProofStatus = "covered" | "starts" | "ended" | "none";

export interface CoverageProof {
  covered: boolean;
  status: ProofStatus;
  /** The last day covered: ahead while covered, behind once ended; null otherwise. */
  coveredThrough: string | null;
  /** The first day of coverage paid for and not begun. */
  startsOn: string | null;
}

const NONE: CoverageProof = { covered: false, status: "none", coveredThrough: null, startsOn: null };

/**
 * The cancellation that ends the current term, when one is recorded (dated today, earlier or
 * later): the latest event, by date, is a cancellation. A reinstatement on or after it begins
 * a new term (coverage.ts), and is later or the same day, recorded after it.
 */
export function termCancelledOn(events: readonly Pick<TermEvent, "kind" | "on">[]): string | null {
  const last = events.reduce<Pick<TermEvent, "kind" | "on"> | null>((latest, e) => (!latest || e.on >= latest.on ? e : latest), null);
  return last?.kind === "cancelled" ? last.on : null;
}

/** `active`: an account staff deactivated is covered by nothing it shows. */
export function coverageProof(coverage: Coverage, events: readonly Pick<TermEvent, "kind" | "on">[], active: boolean): CoverageProof {
  if (!active || !coverage.paidThrough) return NONE;
  const cancelledOn = coverage.state.kind === "cancelled" ? coverage.state.on : termCancelledOn(events);
  const dayBefore = cancelledOn ? addDays(cancelledOn, -1) : null;
  const lastDay = dayBefore && dayBefore < coverage.paidThrough ? dayBefore : coverage.paidThrough;
  // Cancelled before the paid coverage began: there was none.
  if (coverage.effectiveOn && lastDay < coverage.effectiveOn) return NONE;
  switch (coverage.state.kind) {
    case "covered":
      return { covered: true, status: "covered", coveredThrough: lastDay, startsOn: null };
    case "starts":
      return { covered: false, status: "starts", coveredThrough: null, startsOn: coverage.state.on };
    case "past-due":
    case "lapsed":
    case "cancelled":
      return { covered: false, status: "ended", coveredThrough: lastDay, startsOn: null };
    default:
      return NONE;
  }
}

/** The proof's headline. */
export function proofHeading(proof: Pick<CoverageProof, "status">): string {
  return proof.status === "covered" ? "Covered" : proof.status === "starts" ? "Not yet covered" : "Not covered";
}

/** Its one date, with the words that say what it is: "Coverage starts" / "December 1, 2026". */
export function proofDate(proof: Omit<CoverageProof, "covered">): { label: string; value: string } {
  switch (proof.status) {
    case "covered":
      return { label: "Covered through", value: formatLongDay(proof.coveredThrough!) };
    case "starts":
      return { label: "Coverage starts", value: formatLongDay(proof.startsOn!) };
    case "ended":
      return { label: "Coverage ended", value: formatLongDay(proof.coveredThrough!) };
    case "none":
      return { label: "Coverage", value: "None in force" };
  }
}

/** When the check was made: the association's calendar day. */
export const checkedText = (day: string) => `Checked ${formatLongDay(day)}`;

/** "Dana R.": what the check shows of a person. */
export function firstNameAndInitial(first: string | null, last: string | null): { firstName: string; lastInitial: string } {
  return { firstName: (first ?? "").trim(), lastInitial: Array.from((last ?? "").trim())[0]?.toUpperCase() ?? "" };
}
