import { Link } from "react-router";
import { ArrowRight, BookOpenCheck, FileText, HeartPulse, Mail, MessageSquareText, PhoneCall, ShieldCheck } from "lucide-react";
import type { Route } from "./+types/about-us";
import { pageMeta } from "~/components/seo";
import { JoiningNoteForVisitors } from "~/components/JoiningNote";
import { PageHero } from "~/components/PageHero";
import { CheckList, FeatureCard } from "~/features/marketing/FeatureCard";
import { Illustration, SectionHeading } from "~/features/marketing/Section";
import { StatsBand } from "~/features/marketing/StatsBand";
import { COVERAGE_START, MEMBERSHIP_MONTHLY_PRICE } from "~/features/marketing/membership";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "About Us",
    description: "Our mission, the 75,000+ families we have served, our home protection plans and the member support team behind them.",
  });

export default function AboutUsPage() {
  return (
    <>
      <PageHero eyebrow="About Us" title="Standing behind homeowners and the homes they love">
        The American Homeowners Association brings homeowners education, tools and protection, with people who answer when you call.
      </PageHero>

      <section aria-labelledby="mission-heading" className="py-16 sm:py-20">
        <div className="container-page grid items-center gap-12 lg:grid-cols-2">
          <SectionHeading eyebrow="Why we exist" title="Our Mission" id="mission-heading">
            <p>
              We believe every homeowner deserves clear information and real protection. Our mission is to help families buy with
              confidence, care for their homes year after year, and stay in them when life takes an unexpected turn.
            </p>
            <p className="mt-4">
              We focus on the moments when homeowners need help most: the first year in a new home, the months after a refinance, and the
              day something goes wrong.
            </p>
          </SectionHeading>
          <Illustration name="mission" width={420} height={320} className="mx-auto h-auto w-full max-w-md" />
        </div>
      </section>

      <section aria-labelledby="stats-heading" className="bg-brand-900 py-16 text-white sm:py-20">
        <div className="container-page">
          <SectionHeading eyebrow="Our impact" title="Trusted by homeowners nationwide" id="stats-heading" align="center" tone="dark">
            <p>Numbers we are proud of, built one member at a time.</p>
          </SectionHeading>
          <div className="mt-10">
            <StatsBand />
          </div>
        </div>
      </section>

      <section aria-labelledby="plans-heading" className="py-16 sm:py-20">
        <div className="container-page grid gap-12 lg:grid-cols-[1fr_1.1fr] lg:items-start">
          <div>
            <SectionHeading eyebrow="Coverage" title="Home Protection Plans" id="plans-heading">
              <p>
                Our home protection plan provides accidental death and dismemberment coverage for members, so a sudden accident does not
                force a family from its home.
              </p>
            </SectionHeading>
            <div className="mt-6">
              <CheckList
                items={[
                  "Accidental death and dismemberment coverage",
                  `Membership available separately for ${MEMBERSHIP_MONTHLY_PRICE} monthly`,
                  COVERAGE_START,
                  "Simple enrollment with help from our team at every step",
                ]}
              />
            </div>
          </div>
          <div className="grid gap-6 sm:grid-cols-2">
            <FeatureCard icon={ShieldCheck} title="Protection for your family">
              Coverage designed around the people who depend on your home and your income.
            </FeatureCard>
            <FeatureCard icon={HeartPulse} title="Support when it matters">
              When the unexpected happens, our team guides your family through every step of a claim.
            </FeatureCard>
            <FeatureCard icon={FileText} title="Clear terms">
              Straightforward plan documents and answers in plain language, before and after you enroll.
            </FeatureCard>
            <FeatureCard icon={BookOpenCheck} title="More than insurance">
              Membership adds education, a maintenance calendar, video tutorials and practical tools.
            </FeatureCard>
          </div>
        </div>
      </section>

      <section aria-labelledby="support-heading" className="bg-slate-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading eyebrow="People, not phone trees" title="Member Support" id="support-heading" align="center">
            <p>Our member services team is here for questions about membership, coverage, payments and homeownership.</p>
          </SectionHeading>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            <li>
              <FeatureCard icon={PhoneCall} title="Talk to a person">
                Call us Monday to Friday, 8:00 AM to 6:00 PM EST, and Saturday, 9:00 AM to 3:00 PM EST.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={Mail} title="Replies within 24 hours">
                Send us a message any time; we respond within 24 hours.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={MessageSquareText} title="Forms and materials">
                Request CPA forms and homeowner materials online, and we will send them to you.
              </FeatureCard>
            </li>
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="py-16 sm:py-20">
        <div className="container-page">
          <div className="flex flex-col items-start gap-8 rounded-3xl bg-gradient-to-br from-brand-800 to-brand-700 p-8 text-white sm:p-12 lg:flex-row lg:items-center lg:justify-between">
            <div className="max-w-2xl">
              <h2 id="cta-heading" className="font-serif text-3xl font-bold">
                Protect your home and your family
              </h2>
              <p className="mt-3 text-lg text-brand-100">
                Compare your coverage options, or talk it through with our team first. Either way, you will have clear answers before you
                commit.
              </p>
              <JoiningNoteForVisitors tone="dark" className="mt-4 text-sm leading-relaxed text-brand-100" />
            </div>
            <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row lg:shrink-0">
              <Link to="/application" className="btn-accent whitespace-nowrap px-6 py-3 text-base">
                Explore Coverage Options <ArrowRight className="h-4 w-4" aria-hidden />
              </Link>
              <Link
                to="/contact-us"
                className="btn whitespace-nowrap border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10"
              >
                Contact Our Team
              </Link>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
