import { memberIdOf } from "~/features/auth/user";
import type { Route } from "./+types/contact-us";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/components/seo";
import { ContactDetails } from "~/features/contact/ContactDetails";
import { formAfterPage } from "~/components/forms/afterPage";
import { readPostedForm } from "~/platform/posted-form.server";
import { submitPostedForm } from "~/features/submissions/intake/form-action.server";
import { contactSchema } from "~/features/submissions/intake/schemas";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Contact Us",
    description:
      "Call, e-mail or write to the association's member services team. We answer every message within 24 hours, Monday to Saturday.",
  });

export function loader({ context }: Route.LoaderArgs) {
  return { config: context.publicConfig };
}

/** The contact form posted without JavaScript: same schema and service as POST /api/forms. */
export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readPostedForm(request);
  return submitPostedForm(posted, contactSchema, context.services.logger, (input) =>
    context.services.submissions.submitContact(input, context.ip, memberIdOf(context.user)),
  );
}

/** The form's code (zod, Conform, the schema) comes after the page: components/forms/afterPage. */
const ContactForm = formAfterPage(() => import("~/features/contact/ContactForm").then((m) => m.ContactForm));

export default function ContactUsPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero eyebrow="Contact Us" title="We're here to help">
        Send us a message and a member of our team will get back to you within 24 hours.
      </PageHero>
      <div className="container-page grid gap-10 py-12 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:py-16">
        <ContactDetails config={loaderData.config} />
        <section
          aria-labelledby="contact-form-title"
          className="order-first self-start rounded-2xl lg:order-none border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2 id="contact-form-title" className="font-serif text-2xl font-bold text-brand-900">
            Send us a message
          </h2>
          <p className="mt-1 text-sm text-slate-600">All fields are required unless marked optional.</p>
          <div className="mt-6">
            <ContactForm result={actionData} />
          </div>
        </section>
      </div>
    </>
  );
}
