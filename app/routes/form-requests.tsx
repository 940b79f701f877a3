import { data } from "react-router";
import { memberIdOf } from "~/features/auth/user";
import type { Route } from "./+types/form-requests";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/components/seo";
import { FormRequests, type FormSelection } from "~/features/form-requests/FormRequests";
import { INVALID_FORM_SELECTION } from "~/features/form-requests/messages";
import { readPostedForm } from "~/platform/posted-form.server";
import { parseForm } from "~/components/forms/parse-form";
import { submitPostedForm } from "~/features/submissions/intake/form-action.server";
import { postedValue, type FormActionData } from "~/features/submissions/intake/form-result";
import { isRequestFormKind } from "~/features/submissions/intake/request-forms";
import { requestFormSchema } from "~/features/submissions/intake/schemas";
import { publicPage } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = publicPage(["form"]);

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Form Requests",
    description: "Request a CPA statement for your accountant or homeowner materials such as maintenance checklists and coverage guides.",
  });

export function loader({ request }: Route.LoaderArgs) {
  const form = new URL(request.url).searchParams.get("form");
  const selection: FormSelection = form === null || form === "" ? null : isRequestFormKind(form) ? form : "invalid";
  return { selection };
}

/** A request form posted without JavaScript: same schema and service as the JSON API. */
export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readPostedForm(request);
  const kind = posted.get("form");
  if (!isRequestFormKind(kind)) {
    const result = parseForm(posted, requestFormSchema).reply();
    return data<FormActionData>({ status: "failed", result, message: INVALID_FORM_SELECTION }, { status: 400 });
  }
  return submitPostedForm(posted, requestFormSchema, context.services.logger, (input) =>
    context.services.submissions.submitRequestForm(kind, input, context.ip, memberIdOf(context.user)),
  );
}

export default function FormRequestsPage({ loaderData, actionData }: Route.ComponentProps) {
  // After a post without JavaScript, the posted form stays chosen unless it was sent.
  const posted = postedValue(actionData, "form");
  const selection: FormSelection =
    actionData?.status === "success"
      ? null
      : posted !== undefined
        ? isRequestFormKind(posted)
          ? posted
          : "invalid"
        : loaderData.selection;
  return (
    <>
      <PageHero eyebrow="Form Requests" title="Request forms and materials">
        Need paperwork for your accountant or printed guides for your home? Send us a request and we will take care of it.
      </PageHero>
      <div className="container-page max-w-5xl py-12 lg:py-16">
        <FormRequests selection={selection} result={actionData} />
      </div>
    </>
  );
}
