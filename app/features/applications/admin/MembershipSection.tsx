import { Link2, LoaderCircle, TriangleAlert, UserPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { MixedScriptsMark } from "~/components/admin/MixedScriptsMark";
import { useAssociationTime } from "~/components/useAssociationTime";
import type { ApplicationMembership, MemberMatch, MemberMatches, PlanFromApplication } from "../contract";
import { BILLING_LABELS } from "~/features/membership/contract";
import { formatCents, formatLongDay } from "~/features/membership/coverage";
import { membershipApi } from "../membership-client";
import type { MembershipSectionProps } from "~/features/submissions/admin/SubmissionDetailDialog";
import { errorText } from "~/features/submissions/admin/api-client";

const WELCOME_TEXT: Record<ApplicationMembership["welcome"], string> = {
  sent: "The welcome e-mail with how to sign in was sent.",
  failed: "The welcome e-mail could not be sent; it will be tried again the next time.",
  "already-sent": "The welcome e-mail had already been sent.",
  "not-sent": "No welcome e-mail has been sent.",
  "mail-off": "E-mail is not set up on this site: tell the member their certificate number yourself.",
  "no-address":
    "This member has no e-mail address on record, so no welcome e-mail was sent: tell the member their certificate number yourself.",
};

/** Where a linked member's welcome e-mail would go, said before staff choose. */
const MATCH_EMAIL_TEXT: Record<MemberMatch["email"], string> = {
  same: "Their e-mail address on record is the same as this application's.",
  different:
    "Their e-mail address on record differs from this application's: a welcome e-mail would go to the address on record, never to the application's.",
  missing: "They have no e-mail address on record: no welcome e-mail would be sent.",
};

export const matchLabel = (m: MemberMatch) => `${m.name || "the member"} (${m.certificate})`;

/** What the application's plan sets, line by line, as staff read it before giving it to a linked member. */
const planLines = (plan: PlanFromApplication) => [
  `Billing: ${BILLING_LABELS[plan.billing]}`,
  `Coverage amount: ${plan.coverageCents === null ? "none" : formatCents(plan.coverageCents)}`,
  `Beneficiary: ${plan.beneficiaryName ? `${plan.beneficiaryName}${plan.beneficiaryRelationship ? ` (${plan.beneficiaryRelationship})` : ""}` : "none"}`,
  `Approved on: ${formatLongDay(plan.approvedOn)}`,
  `Co-insured: ${plan.coInsuredName ?? "none"}`,
];

/** An application's member: the one it became, or a button to make it one once approved. */
export function MembershipSection({ applicationId, status, membership, onChanged }: MembershipSectionProps) {
  const [busy, setBusy] = useState(false);
  const when = useAssociationTime();
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  // The members with the application's name and birthdate (and the plan the application gives): staff choose before anything is done.
  const [matches, setMatches] = useState<MemberMatches | null>(null);

  async function run(step: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  /** "Create member": a possible match is shown first; without one the new member is made at once. */
  const start = () =>
    run(async () => {
      const found = await membershipApi.matches(applicationId);
      if (found.matches.length) setMatches(found);
      else await create(null);
    });

  async function create(linkTo: number | null, givePlan = false) {
    const result = await membershipApi.createMember(applicationId, linkTo, givePlan);
    setMatches(null);
    const plan = result.created
      ? ""
      : result.planGiven
        ? " The plan from this application was given to them."
        : " Their plan was left as it is.";
    setSaid(
      `${result.created ? `Member ${result.member.certificate} created.` : `Linked to the existing member ${result.member.certificate}.${plan}`} ${WELCOME_TEXT[result.welcome]}`,
    );
    onChanged({ member: result.member, welcomeSentAt: result.welcome === "sent" ? new Date().toISOString() : membership.welcomeSentAt });
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
            {membership.welcomeSentAt ? `Welcome e-mail sent ${when(membership.welcomeSentAt) ?? ""}.` : "No welcome e-mail has been sent."}
          </p>
        </div>
      ) : status === "approved" ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">
            Make the applicant a member: a new certificate number with the name, birthdate and contact details from this application. When a
            member with the same name and birthdate exists, you choose first.
          </p>
          {matches ? (
            <MatchChoice
              matches={matches.matches}
              plan={matches.plan}
              busy={busy}
              onChoose={(linkTo, givePlan) => void run(() => create(linkTo, givePlan))}
              onCancel={() => setMatches(null)}
            />
          ) : (
            <button type="button" className="btn-primary" onClick={() => void start()} disabled={busy}>
              {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <UserPlus className="h-4 w-4" aria-hidden />}
              {busy ? "Creating member..." : "Create member"}
            </button>
          )}
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

/**
 * A member with the application's name and birthdate exists: what linking would do, and the
 * explicit choice (link to that member, or a new member). Focus moves to its heading.
 */
function MatchChoice({
  matches,
  plan,
  busy,
  onChoose,
  onCancel,
}: {
  matches: MemberMatch[];
  plan: PlanFromApplication;
  busy: boolean;
  onChoose: (linkTo: number | null, givePlan: boolean) => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Members without a plan staff chose to give the application's plan to: none unless ticked.
  const [givePlanTo, setGivePlanTo] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => heading.current?.focus(), []);
  return (
    <div
      role="group"
      aria-labelledby="membership-match-heading"
      data-testid="membership-match"
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <h4 id="membership-match-heading" ref={heading} tabIndex={-1} className="flex items-center gap-2 font-semibold outline-none">
        <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
        {matches.length === 1 ? "A member with this name and birthdate exists" : "Members with this name and birthdate exist"}
      </h4>
      <p>
        Anyone who knows a member&apos;s name and birthday can apply in their name. Link only if you are sure the applicant is this member:
        a linked member keeps the contact details on their record, and their certificate number goes only to the e-mail address on their
        record.
      </p>
      <ul className="space-y-3">
        {matches.map((m) => (
          <li key={m.id} className="rounded-md border border-amber-200 bg-white p-3" data-testid="membership-match-member">
            <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">
              {m.name || "No name"}
              <MixedScriptsMark name={m.name} />, certificate {m.certificate}
              {m.active ? "" : " (inactive)"}
            </p>
            <p className="mt-1 text-slate-700">{MATCH_EMAIL_TEXT[m.email]}</p>
            {m.hasPlan ? (
              <p className="mt-1 text-slate-700">They have a plan on record: a link leaves it as it is.</p>
            ) : (
              <div className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2 text-slate-800" data-testid="membership-match-plan">
                <p>They have no plan on record. This application&apos;s plan would set:</p>
                <ul className="mt-1 list-disc pl-5 [overflow-wrap:anywhere]">
                  {planLines(plan).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
                <label className="mt-2 flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700"
                    checked={givePlanTo.has(m.id)}
                    disabled={busy}
                    onChange={(e) =>
                      setGivePlanTo((was) => {
                        const next = new Set(was);
                        if (e.target.checked) next.add(m.id);
                        else next.delete(m.id);
                        return next;
                      })
                    }
                  />
                  <span>Give {m.name || "them"} this plan with the link (unticked: the link leaves them without a plan)</span>
                </label>
              </div>
            )}
            <button
              type="button"
              className="btn-outline mt-2 max-w-full whitespace-normal"
              disabled={busy}
              onClick={() => onChoose(m.id, !m.hasPlan && givePlanTo.has(m.id))}
            >
              <Link2 className="h-4 w-4 shrink-0" aria-hidden />
              Link to {matchLabel(m)}
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => onChoose(null, false)}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <UserPlus className="h-4 w-4" aria-hidden />}
          Create a new member
        </button>
        <button type="button" className="btn-ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
