/** Staff's browser calls: an approved application's possible matches, then the member it becomes or is linked to. */
import { jsonClient } from "~/platform/json-client";
import type { ApplicationMembership, MemberMatches } from "./contract";

const call = jsonClient();

export const membershipApi = {
  /** GET /api/admin/applications/:id/member-matches */
  matches: (applicationId: number) =>
    call<MemberMatches & { success: true }>(`/api/admin/applications/${applicationId}/member-matches`).then(
      ({ matches, plan }): MemberMatches => ({ matches, plan }),
    ),
  /**
   * POST /api/admin/applications/:id/member: linkTo null makes a new member; a member's id links
   * to that member, who gets the application's plan only with givePlan (and none of their own).
   */
  createMember: (applicationId: number, linkTo: number | null, givePlan = false) =>
    call<ApplicationMembership & { success: true }>(`/api/admin/applications/${applicationId}/member`, {
      method: "POST",
      json: { linkTo, givePlan },
    }).then(({ member, created, welcome, planGiven }): ApplicationMembership => ({ member, created, welcome, planGiven })),
};
