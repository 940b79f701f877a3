import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/privacy-policy";
import { pageMeta } from "~/components/seo";
import { PageHero } from "~/components/PageHero";
import { telHref, usePublicConfig } from "~/components/usePublicConfig";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Privacy Policy",
    description: "How the American Homeowners Association collects, uses, shares and protects your personal information.",
    noindex: true,
  });

const POLICY_EFFECTIVE = "January 1, 2022";
const POLICY_UPDATED = "January 1, 2024";

interface PolicySection {
  id: string;
  title: string;
  body: ReactNode;
}

function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <ul className="mt-3 list-disc space-y-2 pl-6 marker:text-brand-600">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

function policySections(contact: { orgName: string; email: string; phone: string; address: string }): PolicySection[] {
  return [
    {
      id: "information-we-collect",
      title: "Information We Collect",
      body: (
        <>
          <p>We collect only the information we need to serve members and visitors:</p>
          <Bullets
            items={[
              <>
                <strong>Information you give us.</strong> When you send a contact message, request forms or materials, or apply for
                membership, we receive what you enter: for example your name, e-mail address, phone number, postal address, and, on an
                application, dates of birth, coverage amount, beneficiary details, signatures and your payment preferences.
              </>,
              <>
                <strong>Sign-in details.</strong> Members sign in with a certificate number and date of birth. We keep only a protected
                digest of the date of birth used for sign-in, never the date itself for that purpose.
              </>,
              <>
                <strong>Technical information.</strong> Our servers record the pages requested, the time, your IP address and browser type,
                to keep the site secure and working. Web addresses are logged without their query strings.
              </>,
            ]}
          />
        </>
      ),
    },
    {
      id: "how-we-use-information",
      title: "How We Use Your Information",
      body: (
        <>
          <p>We use personal information to:</p>
          <Bullets
            items={[
              "review membership applications and administer memberships and the home protection plan;",
              "answer your messages and send the forms and materials you request;",
              "verify your identity when you sign in to the members area;",
              "protect the site and our members against fraud, abuse and automated submissions;",
              "improve our pages, tools and educational content;",
              "meet our legal, accounting and regulatory obligations.",
            ]}
          />
          <p className="mt-3">We do not sell your personal information, and we do not use it for third-party advertising.</p>
        </>
      ),
    },
    {
      id: "how-we-share-information",
      title: "How We Share Your Information",
      body: (
        <>
          <p>We share personal information only when it is needed to serve you or required by law:</p>
          <Bullets
            items={[
              "with the insurance company that underwrites the home protection plan, to enroll you and handle claims;",
              "with service providers that host our website, deliver our e-mail or process payments, under contracts that limit their use of your information to the services they provide to us;",
              "when the law requires it, or to protect the rights, property or safety of our members, the public or the association;",
              "with a successor organization if the association merges or transfers its membership programs, under this policy;",
              "with anyone else only with your consent.",
            ]}
          />
        </>
      ),
    },
    {
      id: "cookies",
      title: "Cookies, Local Storage and Other Websites",
      body: (
        <>
          <p>
            We use a single session cookie to keep you signed in to the members area. It is strictly necessary, expires on its own, and is
            deleted when you log out. Your browser's local storage keeps your display name so that open tabs stay in step, and keeps a
            contact message that could not be sent so you do not have to type it again. We do not use advertising or tracking cookies.
          </p>
          <p className="mt-3">
            Articles in our knowledge center link to other publishers, video tutorials play from YouTube in its privacy-enhanced mode, and
            payments are made on our payment partner's secure portal. Those websites have their own privacy policies. We never ask for card
            details on this site.
          </p>
        </>
      ),
    },
    {
      id: "data-security",
      title: "Data Security",
      body: (
        <p>
          We protect your information with encryption in transit, access limited to authorized staff with individual accounts, sign-in
          limits that slow down guessing, and sessions that expire. No method of transmission or storage is completely secure, so we cannot
          guarantee absolute security, but we review our safeguards regularly and will notify you as the law requires if a breach affects
          your information.
        </p>
      ),
    },
    {
      id: "data-retention",
      title: "Data Retention",
      body: (
        <p>
          We keep membership and application records for as long as your membership is active and afterwards for as long as the law, our
          insurer or the settlement of claims requires. Contact messages and form requests are kept as long as needed to answer them and
          keep an accurate record, and are then deleted. Server logs are kept for a limited period for security purposes.
        </p>
      ),
    },
    {
      id: "your-rights",
      title: "Your Rights and Choices",
      body: (
        <>
          <p>You may ask us to:</p>
          <Bullets
            items={[
              "tell you what personal information we hold about you and give you a copy;",
              "correct information that is inaccurate or incomplete;",
              "delete your information, unless we must keep it to administer coverage or meet a legal obligation;",
              "stop sending you membership news by e-mail.",
            ]}
          />
          <p className="mt-3">
            Residents of some states, including California, have additional rights under state law. We will honor them and will never treat
            you differently for exercising your privacy rights. To make a request, contact us as described in section 9; we may need to
            verify your identity first.
          </p>
        </>
      ),
    },
    {
      id: "childrens-privacy",
      title: "Children's Privacy",
      body: (
        <p>
          Our website and services are intended for adults. We do not serve children under 13, and we do not knowingly collect personal
          information from children under 13. If you believe a child under 13 has given us personal information, please contact us and we
          will delete it.
        </p>
      ),
    },
    {
      id: "changes-and-contact",
      title: "Changes to This Policy and How to Contact Us",
      body: (
        <>
          <p>
            We may update this policy from time to time. When we do, we change the "Last updated" date at the top of this page, and we will
            tell members about significant changes by e-mail or on this site before they take effect.
          </p>
          <p className="mt-3">Questions or requests about your privacy are welcome:</p>
          <address className="mt-3 rounded-xl bg-brand-50 p-5 not-italic leading-relaxed">
            <strong className="text-brand-900">{contact.orgName}</strong>
            <br />
            {contact.address}
            <br />
            Phone:{" "}
            <a href={telHref(contact.phone)} className="font-medium text-brand-700 underline underline-offset-2">
              {contact.phone}
            </a>
            <br />
            E-mail:{" "}
            <a href={`mailto:${contact.email}`} className="font-medium text-brand-700 underline underline-offset-2">
              {contact.email}
            </a>
          </address>
          <p className="mt-3">
            You can also send us a message through our{" "}
            <Link to="/contact-us" className="font-medium text-brand-700 underline underline-offset-2">
              contact page
            </Link>
            .
          </p>
        </>
      ),
    },
  ];
}

export default function PrivacyPolicyPage() {
  const config = usePublicConfig();
  const sections = policySections(config);
  return (
    <>
      <PageHero eyebrow="Legal" title="Privacy Policy">
        <p>
          <span className="block sm:inline">Effective date: {POLICY_EFFECTIVE}</span>
          <span aria-hidden className="mx-2 hidden sm:inline">
            ·
          </span>
          <span className="block sm:inline">Last updated: {POLICY_UPDATED}</span>
        </p>
      </PageHero>

      <div className="container-page grid gap-12 py-12 sm:py-16 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="Policy sections" className="lg:sticky lg:top-36 lg:self-start">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-slate-600">On this page</h2>
          <ol className="mt-4 space-y-2 text-sm">
            {sections.map((section, i) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="flex gap-2 text-brand-700 hover:text-brand-900 hover:underline">
                  <span className="w-5 shrink-0 text-slate-600">{i + 1}.</span>
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <article className="max-w-3xl leading-relaxed text-slate-700">
          <p className="text-lg">
            The {config.orgName} ("the association", "we", "us") respects your privacy. This policy explains what information we collect
            through this website and our membership programs, how we use and share it, and the choices you have.
          </p>
          {sections.map((section, i) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10">
              <h2 id={`${section.id}-heading`} className="font-serif text-2xl font-bold text-brand-900">
                {i + 1}. {section.title}
              </h2>
              <div className="mt-3">{section.body}</div>
            </section>
          ))}
        </article>
      </div>
    </>
  );
}
