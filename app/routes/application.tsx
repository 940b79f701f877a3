import type { Route } from "./+types/application";
import { pageMeta } from "~/components/seo";
import { PageHero } from "~/components/PageHero";
import { parseWithZod } from "@conform-to/zod/v4";
import { requireUser } from "~/features/auth/guards.server";
import { expectedError } from "~/platform/http.server";
import { readPostedForm } from "~/platform/posted-form.server";
import { todayUtc } from "~/platform/dates";
import { ApplicationForm } from "~/features/applications/ApplicationForm";
import { applicationSchema } from "~/features/applications/contract";
import { COVERAGE_START, MEMBERSHIP_MONTHLY_PRICE } from "~/features/marketing/membership";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Membership Application",
    description: "Apply for membership and the home protection plan: fill out and sign the application online.",
    noindex: true,
  });

/** Signed-in users only (spec route table). Today's date seeds the form; the browser corrects it to its own day. */
export async function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return { today: todayUtc(), config: context.publicConfig };
}

/**
 * The form posted before JavaScript has loaded: the same schema and service as
 * POST /api/applications, answered with Conform's result (the errors, or a reset on success).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const submission = parseWithZod(await readPostedForm(request), { schema: applicationSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return { result: submission.reply(), submitted: false, failure: null };
  try {
    await context.services.applications.admitSubmission(user.id);
    await context.services.applications.submit(submission.value, user.id);
  } catch (err) {
    const refused = expectedError(err);
    if (!refused) throw err;
    return { result: submission.reply(), submitted: false, failure: refused.message };
  }
  return { result: submission.reply({ resetForm: true }), submitted: true, failure: null };
}

/**
 * Membership application (public-side spec, section 2): 'A. Fill Out and Sign Application',
 * 'Beneficiary Information', 'Payment Options', the preview-form statement, and a legal
 * footer with the return address, the underwriter and the disclosures.
 */
export default function ApplicationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { today, config } = loaderData;
  return (
    <>
      <PageHero eyebrow="Membership" title="Membership Application">
        Apply for membership and the home protection plan. It takes about ten minutes; fields marked * are required.
      </PageHero>
      <div className="container-page max-w-5xl py-10 lg:py-14">
        <noscript>
          <p className="mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            Drawing your signatures needs JavaScript. Please turn it on, or mail a signed paper application to the return address below.
          </p>
        </noscript>
        <ApplicationForm today={today} posted={actionData} />

        <footer
          aria-label="Legal information"
          data-testid="legal-footer"
          className="mt-12 space-y-3 border-t border-slate-200 pt-6 text-xs leading-relaxed text-slate-600"
        >
          <p>
            <strong className="text-slate-800">Return address:</strong> if you prefer to send a signed paper application, mail it to{" "}
            {config.orgName}, Membership Applications, {config.address}. Questions: {config.phone} or{" "}
            <a className="underline" href={`mailto:${config.email}`}>
              {config.email}
            </a>
            .
          </p>
          <p>
            <strong className="text-slate-800">Underwriter:</strong> the accidental death and dismemberment coverage of the home protection
            plan is underwritten by a licensed insurance company, named in the certificate of insurance issued to each member.{" "}
            {config.orgName} is the group policyholder and does not itself underwrite insurance.
          </p>
          <p>
            <strong className="text-slate-800">Disclosures:</strong> this online application is a preview form; no payment is processed on
            this site, and ACH and card details are collected by contact after review. Membership is available separately for{" "}
            {MEMBERSHIP_MONTHLY_PRICE} monthly. {COVERAGE_START} Coverage is subject to approval and to the terms, limits and exclusions of
            the certificate of insurance. By signing you authorize {config.orgName} to review this application and to contact you about it.
          </p>
        </footer>
      </div>
    </>
  );
}
