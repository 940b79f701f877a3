import { data } from "react-router";
import type { Route } from "./+types/make-payment";
import { parseForm } from "~/components/forms/parse-form";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/components/seo";
import { readPostedForm } from "~/platform/posted-form.server";
import { formAfterPage } from "~/components/forms/afterPage";
import { PaymentHandover } from "~/features/payments/PaymentHandover";
import { paymentSchema } from "~/features/payments/payment";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Make a Payment",
    description:
      "Pay membership fees ($99.00/year), your home warranty premium ($599.00/year) or another amount through our secure payment portal.",
  });

export function loader({ context }: Route.LoaderArgs) {
  return { portalUrl: context.publicConfig.paymentPortalUrl };
}

/**
 * Without JavaScript: checks the choice with the same schema and answers with the hand-over
 * step. Nothing is stored and no payment is made here.
 */
export async function action({ request }: Route.ActionArgs) {
  const submission = parseForm(await readPostedForm(request), paymentSchema);
  if (submission.status !== "success") return data({ status: "invalid" as const, result: submission.reply() }, { status: 400 });
  return { status: "ready" as const, summary: submission.value };
}

/** The form's code (zod, Conform, the schema) comes after the page: components/forms/afterPage. */
const PaymentForm = formAfterPage(() => import("~/features/payments/PaymentForm").then((m) => m.PaymentForm));

const STEPS = ["Choose what you are paying for", "Add your membership ID and the amount", "Pay on our secure portal"];

export default function MakePaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero eyebrow="Make a Payment" title="Pay securely online">
        Choose a payment below and continue to our secure payment portal. It takes about two minutes.
      </PageHero>
      <div className="container-page py-12 lg:py-16">
        {actionData?.status === "ready" ? (
          <PaymentHandover summary={actionData.summary} portalUrl={loaderData.portalUrl} />
        ) : (
          <>
            <ol className="mb-10 hidden gap-3 sm:grid sm:grid-cols-3" aria-label="How it works">
              {STEPS.map((step, i) => (
                <li key={step} className="flex items-center gap-3 rounded-xl bg-brand-50 px-4 py-3 text-sm font-medium text-brand-900">
                  <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white" aria-hidden>
                    {i + 1}
                  </span>
                  {step}
                </li>
              ))}
            </ol>
            <PaymentForm lastResult={actionData?.status === "invalid" ? actionData.result : undefined} />
          </>
        )}
      </div>
    </>
  );
}
