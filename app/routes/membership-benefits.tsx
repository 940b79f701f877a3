import { Link } from "react-router";
import { ArrowRight, BookOpen, Calculator, Hammer, MessagesSquare, ShieldCheck, UsersRound } from "lucide-react";
import type { Route } from "./+types/membership-benefits";
import { pageMeta } from "~/components/seo";
import { JoiningNoteForVisitors } from "~/components/JoiningNote";
import { PageHero } from "~/components/PageHero";
import { CheckList, FeatureCard } from "~/features/marketing/FeatureCard";
import { SectionHeading } from "~/features/marketing/Section";
import { COVERAGE_START, COVERAGE_SUMMARY, MEMBERSHIP_MONTHLY_PRICE } from "~/features/marketing/membership";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Membership Benefits",
    description:
      "Home warranty protection, a member network, expert consultation, education, financial tools and home maintenance support for members.",
  });

/** The six benefit cards of the spec, in its order. */
const BENEFITS = [
  {
    icon: ShieldCheck,
    title: "Home Warranty Protection",
    text: "Protection options that help with the cost of repairing or replacing the systems and appliances your home runs on.",
  },
  {
    icon: UsersRound,
    title: "Member Network Access",
    text: "Connect with a nationwide community of homeowners and with professionals who understand what owning a home takes.",
  },
  {
    icon: MessagesSquare,
    title: "Expert Consultation",
    text: "Ask our team about buying, refinancing, insurance and upkeep, and get straight answers in plain language.",
  },
  {
    icon: BookOpen,
    title: "Educational Resources",
    text: "The members-only knowledge center: articles from trusted sources, video tutorials and guides for every stage of ownership.",
  },
  {
    icon: Calculator,
    title: "Financial Tools",
    text: "A mortgage calculator with amortization schedules, extra-payment planning and printable reports to plan with confidence.",
  },
  {
    icon: Hammer,
    title: "Home Maintenance Support",
    text: "A month-by-month maintenance calendar you can export to your own calendar, so small jobs never become big repairs.",
  },
] as const;

export default function MembershipBenefitsPage() {
  return (
    <>
      <PageHero eyebrow="Membership Benefits" title="Everything you need to buy, protect and keep your home">
        One membership brings protection, expert help and practical tools together, for {MEMBERSHIP_MONTHLY_PRICE} a month.
      </PageHero>

      <section aria-labelledby="benefits-heading" className="bg-slate-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading eyebrow="What members get" title="Your membership benefits" id="benefits-heading" align="center">
            <p>Six ways the association works for you, from the day you join.</p>
          </SectionHeading>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {BENEFITS.map((benefit) => (
              <li key={benefit.title}>
                <FeatureCard icon={benefit.icon} title={benefit.title}>
                  {benefit.text}
                </FeatureCard>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="glance-heading" className="py-16 sm:py-20">
        <div className="container-page grid gap-10 lg:grid-cols-[1.2fr_1fr] lg:items-center">
          <div>
            <SectionHeading eyebrow="Membership at a glance" title="Simple, affordable protection" id="glance-heading">
              <p>{COVERAGE_SUMMARY}</p>
            </SectionHeading>
            <div className="mt-6">
              <CheckList
                items={[
                  "Accidental death and dismemberment coverage through our home protection plan",
                  "All six membership benefits above",
                  COVERAGE_START,
                ]}
              />
            </div>
          </div>
          <div className="rounded-3xl bg-brand-900 p-8 text-white shadow-xl sm:p-10">
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-400">Membership</p>
            <p className="mt-3 flex items-baseline gap-2">
              <span className="font-serif text-5xl font-bold">{MEMBERSHIP_MONTHLY_PRICE}</span>
              <span className="text-lg text-brand-100">per month</span>
            </p>
            <p className="mt-4 text-brand-100">Available separately, billed monthly. Our team will walk you through enrollment.</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link to="/application" className="btn-accent px-6 py-3 text-base">
                Apply Now <ArrowRight className="h-4 w-4" aria-hidden />
              </Link>
              <Link to="/contact-us" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                Ask a Question
              </Link>
            </div>
            <JoiningNoteForVisitors tone="dark" className="mt-5 text-sm leading-relaxed text-brand-100" />
          </div>
        </div>
      </section>
    </>
  );
}
