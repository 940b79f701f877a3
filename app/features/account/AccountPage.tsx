import { CircleCheck, LoaderCircle, Save } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { ErrorSummary, Field, FormFailure, inputProps } from "~/components/forms/FormParts";
import { toFieldErrors, useSchemaForm } from "~/components/forms/useSchemaForm";
import { formatDateTime, formatDay } from "~/platform/dates";
import { ApiError, errorReason } from "~/platform/json-client";
import { formatPhone } from "~/domain/formats";
import { PageHero } from "~/components/PageHero";
import { accountApi } from "./api-client";
import { CoverageSections } from "./CoverageSection";
import { SignOutEverywhereSection } from "./SignOutEverywhere";
import { AnnouncementsChoice } from "./AnnouncementsChoice";
import {
  ACCOUNT_MESSAGES,
  CONTACT_LABELS,
  EMAIL_CHANGE,
  contactDetailsSchema,
  type AccountOverview,
  type ContactDetails,
} from "./contract";

const when = (iso: string) => formatDateTime(iso) ?? iso;

/**
 * Everything of My account below the site's header: the banner greeting the member and their
 * page. The server renders it alone for each request and puts it into the kept frame
 * (app/server/page-frames.server.tsx), so it reads no context but the router's and the root
 * loader's configuration.
 */
export function AccountContent({ overview }: { overview: AccountOverview }) {
  const { membership } = overview;
  const name = [membership.firstName, membership.lastName].filter(Boolean).join(" ");
  return (
    <>
      <PageHero eyebrow="My account" title={name ? `Hello, ${name}` : "Your membership"}>
        Your membership, what you have sent us and its status, and how to reach you.
      </PageHero>
      <AccountPage overview={overview} />
    </>
  );
}

/** The overview a loader's data holds (JSON), or null for the stand-in's marker a kept frame is rendered with. */
export function overviewOf(data: string): AccountOverview | null {
  return data.startsWith("{") ? (JSON.parse(data) as AccountOverview) : null;
}

/**
 * The member's own page: coverage and the proof-of-coverage card, membership, what they sent
 * with its status history, and their contact details.
 */
export function AccountPage({ overview }: { overview: AccountOverview }) {
  const { membership, submissions } = overview;
  const name = [membership.firstName, membership.lastName].filter(Boolean).join(" ");
  return (
    <div className="container-page grid gap-8 py-12 lg:grid-cols-[1fr_1.2fr]">
      <CoverageSections certificate={membership.certificate} name={name} />
      <div className="space-y-8">
        <section aria-labelledby="membership-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="membership-heading" className="text-xl font-bold text-brand-900">
            Membership
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="membership-details">
            <dt className="text-slate-600">Certificate number</dt>
            <dd className="font-semibold text-slate-900">{membership.certificate}</dd>
            <dt className="text-slate-600">Name</dt>
            <dd className="text-slate-900">{name || "—"}</dd>
            <dt className="text-slate-600">Status</dt>
            <dd className="text-slate-900">
              {membership.active ? (
                <span className="inline-flex items-center gap-1.5 font-medium text-green-800">
                  <CircleCheck className="h-4 w-4" aria-hidden /> Active
                </span>
              ) : (
                "Inactive"
              )}
            </dd>
            <dt className="text-slate-600">Member since</dt>
            <dd className="text-slate-900">{formatDay(membership.memberSince) ?? membership.memberSince.slice(0, 10)}</dd>
          </dl>
        </section>
        <ContactDetailsForm initial={overview.contact} initialPending={overview.emailPending} />
        <AnnouncementsChoice />
        <SignOutEverywhereSection />
      </div>
      <section aria-labelledby="submissions-heading" className="self-start rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="submissions-heading" className="text-xl font-bold text-brand-900">
          What you sent us
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Applications, form requests and messages you sent while signed in, and the application your membership came from, newest first.
        </p>
        {submissions.length ? (
          <ul className="mt-4 space-y-4" data-testid="account-submissions">
            {submissions.map((s) => (
              <li key={s.ref} className="rounded-lg border border-slate-200 p-4" data-testid="account-submission">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-semibold text-slate-900">{s.formType}</p>
                  <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-medium text-brand-900">{s.statusLabel}</span>
                </div>
                <p className="text-sm text-slate-600">Sent {when(s.submittedAt)}</p>
                {s.changes.length ? (
                  <ol className="mt-2 space-y-0.5 border-l-2 border-slate-200 pl-3 text-sm text-slate-700">
                    {s.changes.map((c, i) => (
                      <li key={i}>
                        {c.toLabel}: {when(c.at)}
                      </li>
                    ))}
                  </ol>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-slate-700">
            Nothing yet.{" "}
            <Link to="/application" className="text-brand-700 underline">
              Apply for the plan
            </Link>
            ,{" "}
            <Link to="/form-requests" className="text-brand-700 underline">
              request a form
            </Link>{" "}
            or{" "}
            <Link to="/contact-us" className="text-brand-700 underline">
              write to us
            </Link>
            .
          </p>
        )}
      </section>
    </div>
  );
}

function ContactDetailsForm({ initial, initialPending }: { initial: ContactDetails; initialPending: string | null }) {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  // A new e-mail address waiting for its link: `sent` when this save sent it.
  const [pending, setPending] = useState<{ address: string; sent: boolean } | null>(
    initialPending ? { address: initialPending, sent: false } : null,
  );
  const [error, setError] = useState<string | null>(null);
  const { form, fields, formProps, summaryShown, showErrors, failureId, announceFailure } = useSchemaForm({
    id: "account-contact",
    schema: contactDetailsSchema,
    defaultValue: Object.fromEntries(Object.entries(initial).map(([k, v]) => [k, v ?? ""])),
    onValid: (contact, submission) => {
      if (busy) return;
      setBusy(true);
      setSaved(false);
      setError(null);
      accountApi
        .saveContact(contact)
        .then((answer) => {
          setSaved(true);
          if (answer.emailPending) {
            setPending({ address: answer.emailPending, sent: answer.emailPending !== pending?.address || pending.sent });
            // The field shows the address on record until the link is followed.
            form.update({ name: "email", value: answer.contact.email ?? "" });
          } else if (answer.contact.email === null) setPending(null);
        })
        .catch((err) => {
          const details = err instanceof ApiError ? (err.body?.details as Record<string, string> | undefined) : undefined;
          if (details && typeof details === "object") showErrors(submission, toFieldErrors(details, Object.keys(CONTACT_LABELS)));
          setError(errorReason(err));
          announceFailure();
        })
        .finally(() => setBusy(false));
    },
  });
  // A phone number shows as the public forms show it, (XXX) XXX-XXXX, once the field is left.
  const formatPhoneOnBlur = (e: React.FocusEvent<HTMLInputElement>) => {
    const shown = formatPhone(e.currentTarget.value);
    if (shown !== e.currentTarget.value) form.update({ name: "phone", value: shown });
  };
  // A field's metadata read once: each read of `fields[name]` builds it afresh (Conform), the page's costliest part to render.
  const text = (name: keyof ContactDetails, autoComplete: string, type: "text" | "email" | "tel" = "text", meta = fields[name]) => (
    <Field meta={meta} label={CONTACT_LABELS[name]} optional>
      <input
        {...inputProps(meta, { type })}
        autoComplete={autoComplete}
        className="field-input"
        disabled={busy}
        onBlur={name === "phone" ? formatPhoneOnBlur : undefined}
      />
    </Field>
  );
  return (
    <section aria-labelledby="contact-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="contact-heading" className="text-xl font-bold text-brand-900">
        Contact details
      </h2>
      <p className="mt-1 text-sm text-slate-600">How we reach you about your membership. Staff see these details too.</p>
      <form {...formProps} className="mt-4 space-y-4">
        <ErrorSummary form={form} labels={CONTACT_LABELS} shown={summaryShown} />
        {text("email", "email", "email")}
        {pending ? (
          <p
            role="status"
            className="break-words rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900"
            data-testid="email-pending"
          >
            {pending.sent ? EMAIL_CHANGE.pending(pending.address) : EMAIL_CHANGE.waiting(pending.address)}
          </p>
        ) : null}
        {text("phone", "tel", "tel")}
        {text("address1", "address-line1")}
        {text("address2", "address-line2")}
        {/* City, State and ZIP on one line when the form is wide enough for their labels (its own
            width, not the screen's: beside the card on a desktop it is narrow), else City above the other two. */}
        <div className="@container">
          <div className="grid gap-4 @xs:grid-cols-2 @md:grid-cols-[minmax(0,1fr)_8rem_10rem]">
            <div className="@xs:col-span-2 @md:col-span-1">{text("city", "address-level2")}</div>
            {text("state", "address-level1")}
            {text("zip", "postal-code")}
          </div>
        </div>
        {saved ? (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
            {ACCOUNT_MESSAGES.saved}
          </p>
        ) : null}
        {error ? <FormFailure id={failureId}>{error}</FormFailure> : null}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Save className="h-4 w-4" aria-hidden />}
          {busy ? "Saving..." : "Save contact details"}
        </button>
      </form>
    </section>
  );
}
