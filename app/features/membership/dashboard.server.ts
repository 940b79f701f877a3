import type { CoverageCensus } from "./census.server";
import { countByStatus } from "./statuses";
import { monthlyTrend, type MembershipFigures } from "./trend";

/** The staff dashboard's membership figures: counts by status and the last twelve months, from one census. */
export class MembershipDashboard {
  constructor(private coverage: CoverageCensus) {}

  async figures(): Promise<MembershipFigures> {
    const { today, census } = await this.coverage.all();
    const coverages = [...census.values()];
    return { today, counts: countByStatus(coverages), months: monthlyTrend(coverages, today) };
  }
}
