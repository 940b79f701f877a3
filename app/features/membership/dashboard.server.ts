import type { Kysely } from "kysely";
import type { Database } from "~/platform/schema";
import { coverageCensus } from "./census.server";
import { countByStatus } from "./statuses";
import { monthlyTrend, type MembershipFigures } from "./trend";

/** The staff dashboard's membership figures: counts by status and the last twelve months, from one census. */
export class MembershipDashboard {
  constructor(
    private db: Kysely<Database>,
    /** The association's calendar day. */
    private today: () => string,
  ) {}

  async figures(): Promise<MembershipFigures> {
    const today = this.today();
    const census = [...(await coverageCensus(this.db, today)).values()];
    return { today, counts: countByStatus(census), months: monthlyTrend(census, today) };
  }
}
