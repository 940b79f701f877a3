/** Staff's browser calls: an approved application's possible matches, then the member it becomes or is linked to. */
import { jsonClient } from "~/platform/json-client";
import type { ApplicationMembership, MemberMatches } from "./contract";

const call = jsonClient();

export const membershipApi = {
  /** GET /api/admin/applications/:id/member-matches */
  matches: (applicationId: number) =>
    call<MemberMatches & { success: true }>(`/api/admin/applications/${applicationId}/member-matches`).then(
      ({ matches }): MemberMatches => ({ matches }),
    ),
  /** POST /api/admin/applications/:id/member: linkTo null makes a new member; a member's id links to that member. */
  createMember: (applicationId: number, linkTo: number | null) =>
    call<ApplicationMembership & { success: true }>(`/api/admin/applications/${applicationId}/member`, {
      method: "POST",
      json: { linkTo },
    }).then(({ member, created, welcome }): ApplicationMembership => ({ member, created, welcome })),
};
