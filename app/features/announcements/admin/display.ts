/** How the Announcements tab words an audience and a send's progress (pure, tested beside it). */
import { COVERAGE_KIND_NAMES } from "~/features/membership/statuses";
import { PLAN_CHOICE_LABELS, type Audience, type Progress } from "../contract";

const count = (n: number) => n.toLocaleString("en-US");

/** "All active members", or the audience's choices: "Covered, Past due · Monthly plan · in FL, GA · joined after 2024-01-01". */
export function audienceSummary(audience: Audience): string {
  const parts: string[] = [];
  if (audience.statuses.length) parts.push(audience.statuses.map((s) => COVERAGE_KIND_NAMES[s]).join(", "));
  if (audience.plans.length) parts.push(`${audience.plans.map((p) => PLAN_CHOICE_LABELS[p]).join(" or ")} plan`);
  if (audience.states.length) parts.push(`in ${audience.states.join(", ")}`);
  if (audience.joinedAfter) parts.push(`joined after ${audience.joinedAfter}`);
  if (audience.joinedBefore) parts.push(`joined before ${audience.joinedBefore}`);
  return parts.length ? parts.join(" · ") : "All active members";
}

/** "1 member", "1,234 members". */
export function members(n: number): string {
  return `${count(n)} ${n === 1 ? "member" : "members"}`;
}

/** "sent 120 of 1,234". */
export function sentOf(progress: Progress): string {
  return `sent ${count(progress.sent)} of ${count(progress.recipients)}`;
}

export function skippedTotal(progress: Progress): number {
  return Object.values(progress.skipped).reduce((a, b) => a + b, 0);
}

/** The share of the recipients whose mail is done (sent, failed or skipped), 0 to 100. */
export function donePercent(progress: Progress): number {
  if (!progress.recipients) return 100;
  const done = progress.sent + progress.failed + skippedTotal(progress);
  return Math.min(100, Math.round((done / progress.recipients) * 100));
}

export { count as formatCount };
