/** Staff's browser call: an approved application becomes a member (POST /api/admin/applications/:id/member). */
import { jsonClient } from "~/platform/json-client";
import type { ApplicationMembership } from "./contract";

const call = jsonClient();

export const membershipApi = {
  createMember: (applicationId: number) =>
    call<ApplicationMembership & { success: true }>(`/api/admin/applications/${applicationId}/member`, { method: "POST" }).then(
      ({ member, created, welcome }): ApplicationMembership => ({ member, created, welcome }),
    ),
};
