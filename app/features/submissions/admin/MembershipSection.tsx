import { LoaderCircle, UserPlus } from "lucide-react";
import { useState } from "react";
import { formatDateTime } from "~/platform/dates";
import type { ApplicationMembership } from "~/features/applications/contract";
import { membershipApi } from "~/features/applications/membership-client";
import type { SubmissionDetail, SubmissionStatus } from "../contract";
import { errorText } from "./api-client";

const WELCOME_TEXT: Record<ApplicationMembership["welcome"], string> = {
  sent: "The welcome e-mail with how to sign in was sent.",
  failed: "The welcome e-mail could not be sent; it will be tried again the next time.",
  "already-sent": "The welcome e-mail had already been sent.",
  "not-sent": "No welcome e-mail has been sent.",
  "mail-off": "E-mail is not set up on this site: tell the member their certificate number yourself.",
};

/** An application's member: the one it became, or a button to make it one once approved. */
export function MembershipSection({
  applicationId,
  status,
  membership,
  onChanged,
}: {
  applicationId: number;
  status: SubmissionStatus;
  membership: NonNullable<SubmissionDetail["membership"]>;
  onChanged: (membership: NonNullable<SubmissionDetail["membership"]>) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const result = await membershipApi.createMember(applicationId);
      setSaid(
        `${result.created ? `Member ${result.member.certificate} created.` : `Linked to the existing member ${result.member.certificate}.`} ${WELCOME_TEXT[result.welcome]}`,
      );
      onChanged({ member: result.member, welcomeSentAt: result.welcome === "sent" ? new Date().toISOString() : membership.welcomeSentAt });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const { member } = membership;
  return (
    <section aria-labelledby="submission-membership-heading" data-testid="membership">
      <h3 id="submission-membership-heading" className="mb-2 font-semibold text-brand-900">
        Membership
      </h3>
      {member ? (
        <div className="space-y-1 text-sm">
          <p className="text-slate-900">
            Member <span className="font-semibold">{member.certificate}</span>{" "}
            <a className="text-brand-700 underline" href={`/admin/members?q=${encodeURIComponent(member.certificate)}`}>
              Open in member administration
            </a>
          </p>
          <p className="text-slate-600">
            {membership.welcomeSentAt
              ? `Welcome e-mail sent ${formatDateTime(membership.welcomeSentAt) ?? ""}.`
              : "No welcome e-mail has been sent."}
          </p>
        </div>
      ) : status === "approved" ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">
            Make the applicant a member: a new certificate number, the name and birthdate from this application, or the member they already
            are.
          </p>
          <button type="button" className="btn-primary" onClick={() => void create()} disabled={busy}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <UserPlus className="h-4 w-4" aria-hidden />}
            {busy ? "Creating member..." : "Create member"}
          </button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">Approve the application to make the applicant a member.</p>
      )}
      {said ? (
        <p role="status" className="mt-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {said}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </section>
  );
}
