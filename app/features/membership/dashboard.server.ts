import type { CoverageCensus } from "./census.server";
import { countByStatus } from "./statuses";
import { monthlyTrend, type MembershipFigures } from "./trend";

/** The staff dashboard's membership figures: counts by status and the last twelve months, from one census. */
export class MembershipDashboard {
  /** The figures of the census kept (a new census, after a write or on a new day, is a new Map). */
  private kept = new WeakMap<object, MembershipFigures>();

  constructor(private coverage: CoverageCensus) {}

  /** Changes whenever the figures may (a write to a member, plan, payment or event; a new day): the kept dashboard's version. */
  version(): Promise<string> {
    return this.coverage.version();
  }

  async figures(): Promise<MembershipFigures> {
    const { today, census } = await this.coverage.all();
    let figures = this.kept.get(census);
    if (!figures) {
      const coverages = [...census.values()];
      figures = { today, counts: countByStatus(coverages), months: monthlyTrend(coverages, today) };
      this.kept.set(census, figures);
    }
    return figures;
  }
}
