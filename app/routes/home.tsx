import { useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { ArrowRight, BookOpen, Handshake, Home as HomeIcon, KeyRound, PhoneCall, Signpost, Users } from "lucide-react";
import type { Route } from "./+types/home";
import { lazyDialog } from "~/components/lazyDialog";
import { pageMeta } from "~/components/seo";
import { ABOUT_SECTION_ID, useAboutUs } from "~/components/useAboutUs";
import { FeaturedArticles } from "~/features/articles/FeaturedArticles";
import { CheckList } from "~/features/marketing/FeatureCard";
import { Illustration, SectionHeading } from "~/features/marketing/Section";
import { StatsBand } from "~/features/marketing/StatsBand";
import { COVERAGE_START, MEMBERSHIP_MONTHLY_PRICE } from "~/features/marketing/membership";
import { PUBLIC_PAGE } from "~/platform/public-page";
import type { loader as rootLoader } from "~/root";
import { knowledgeLink } from "~/shell/Header";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

/** Its code is downloaded when a visitor first opens it. */
const BecomeMemberDialog = lazyDialog(() => import("~/features/marketing/BecomeMemberDialog").then((m) => m.BecomeMemberDialog));

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "American Homeowners Association",
    description: "Member benefits, education and a home protection plan for homeowners, new owners and recent refinancers.",
  });

export default function Home() {
  const goAbout = useAboutUs();
  const [memberDialogOpen, setMemberDialogOpen] = useState(false);
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
  return (
    <>
      <section className="overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
        <div className="container-page grid items-center gap-10 py-16 sm:py-24 lg:grid-cols-[1.1fr_0.9fr]">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-400">Protecting homeowners since 2022</p>
            <h1 className="mt-3 max-w-3xl font-serif text-4xl font-bold leading-tight sm:text-5xl lg:text-6xl">
              American Homeowners Association
            </h1>
            <p className="mt-5 max-w-2xl text-lg leading-relaxed text-brand-100 sm:text-xl">
              Protecting homeowners and the homes they love, with member benefits, trusted education and a home protection plan.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <a href={`#${ABOUT_SECTION_ID}`} onClick={goAbout} className="btn-accent px-6 py-3 text-base">
                About Us
              </a>
              <Link to="/membership-benefits" className="btn border border-white/60 px-6 py-3 text-base text-white hover:bg-white/10">
                Membership Benefits
              </Link>
            </div>
          </div>
          <div className="mx-auto w-full max-w-[17rem] sm:max-w-md lg:max-w-none">
            <Illustration name="hero-home" width={480} height={380} aboveTheFold />
          </div>
        </div>
      </section>

      <section id={ABOUT_SECTION_ID} aria-labelledby="about-heading" className="bg-white py-16 sm:py-20">
        <div className="container-page grid gap-12 lg:grid-cols-2 lg:items-center">
          <SectionHeading eyebrow="Who we are" title="About Us" id="about-heading">
            <p>
              The American Homeowners Association is a membership association for people who own a home, or are about to. Since 2022 we have
              helped homeowners, especially new owners and recent refinancers, buy, protect and keep their homes.
            </p>
            <p className="mt-4">
              Our members get practical education from trusted sources, tools that make the numbers clear, a team that picks up the phone,
              and a home protection plan that stands behind their family when it matters most.
            </p>
            <Link to="/about-us" className="mt-6 inline-flex items-center gap-2 font-semibold text-brand-700 hover:text-brand-900">
              More about the association <ArrowRight className="h-4 w-4" aria-hidden />
            </Link>
          </SectionHeading>
          <ul className="grid grid-cols-2 gap-3 sm:gap-4">
            {[
              { icon: KeyRound, title: "New homeowners", text: "Guidance from your first offer to your first year in the house." },
              { icon: HomeIcon, title: "Recent refinancers", text: "Protection that keeps pace with your new mortgage." },
              { icon: BookOpen, title: "Lifelong learners", text: "Articles and videos on upkeep, decor and greener living." },
              { icon: Users, title: "Families", text: "Peace of mind that your household can stay in its home." },
            ].map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl bg-brand-50 p-4 sm:p-5">
                <Icon className="h-6 w-6 text-brand-700" aria-hidden />
                <h3 className="mt-3 font-semibold text-brand-900">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <FeaturedArticles knowledgeHref={knowledgeLink(user)} />

      <section aria-labelledby="mission-heading" className="bg-slate-50 py-16 sm:py-20">
        <div className="container-page grid items-center gap-12 lg:grid-cols-2">
          <div className="order-2 lg:order-1">
            <Illustration name="mission" width={420} height={320} className="mx-auto h-auto w-full max-w-md" />
          </div>
          <div className="order-1 lg:order-2">
            <SectionHeading eyebrow="Why we exist" title="Our Mission" id="mission-heading">
              <p>
                Owning a home is the biggest commitment most families ever make. Our mission is to make sure no homeowner faces it alone: to
                explain every step in plain language, to put real protection within reach, and to help members keep the home they worked so
                hard to buy.
              </p>
            </SectionHeading>
            <div className="mt-6">
              <CheckList
                items={[
                  "Plain-language education on buying, maintaining and selling a home",
                  "Affordable protection for the people who depend on your home",
                  "A member services team that answers questions, not scripts",
                ]}
              />
            </div>
          </div>
        </div>
      </section>

      <section aria-labelledby="help-heading" className="py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading eyebrow="At every stage" title="How We Help Homeowners" id="help-heading" align="center">
            <p>Whether you are picking up the keys or handing them over, members have a partner for the whole journey.</p>
          </SectionHeading>
          <div className="mt-12 grid gap-8 md:grid-cols-2">
            <article className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
              <Illustration name="buying-home" width={320} height={220} className="h-52 w-full bg-brand-50 object-contain sm:h-60" />
              <div className="flex flex-1 flex-col p-6 sm:p-8">
                <h3 className="flex items-center gap-2 text-2xl font-semibold text-brand-900">
                  <KeyRound className="h-6 w-6 text-accent-600" aria-hidden /> Buying a Home
                </h3>
                <p className="mt-3 leading-relaxed text-slate-700">
                  From the first open house to closing day, we help you understand what you can afford and what you are signing.
                </p>
                <div className="mt-5">
                  <CheckList
                    items={[
                      "Articles from trusted sources on mortgages, inspections and closing",
                      "A mortgage calculator with amortization and extra-payment planning",
                      "A home protection plan for the family that lives there",
                    ]}
                  />
                </div>
                <Link
                  to="/mortgage-calculator"
                  className="mt-6 inline-flex items-center gap-2 font-semibold text-brand-700 hover:text-brand-900"
                >
                  Try the mortgage calculator <ArrowRight className="h-4 w-4" aria-hidden />
                </Link>
              </div>
            </article>
            <article className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
              <Illustration name="selling-home" width={320} height={220} className="h-52 w-full bg-brand-50 object-contain sm:h-60" />
              <div className="flex flex-1 flex-col p-6 sm:p-8">
                <h3 className="flex items-center gap-2 text-2xl font-semibold text-brand-900">
                  <Signpost className="h-6 w-6 text-accent-600" aria-hidden /> Selling Your Home
                </h3>
                <p className="mt-3 leading-relaxed text-slate-700">
                  When it is time to move on, we help you prepare, price and present your home so you get its full value.
                </p>
                <div className="mt-5">
                  <CheckList
                    items={[
                      "Articles and videos on the repairs and upgrades buyers notice",
                      "A home maintenance calendar that keeps your home in selling shape",
                      "Straight answers from member services on timing and next steps",
                    ]}
                  />
                </div>
                <Link to="/form-requests" className="mt-6 inline-flex items-center gap-2 font-semibold text-brand-700 hover:text-brand-900">
                  Request homeowner materials <ArrowRight className="h-4 w-4" aria-hidden />
                </Link>
              </div>
            </article>
          </div>
        </div>
      </section>

      <section aria-labelledby="protection-heading" className="bg-brand-900 py-16 text-white sm:py-20">
        <div className="container-page grid items-center gap-12 lg:grid-cols-2">
          <div>
            <SectionHeading eyebrow="Home protection plan" title="Financial Protection" id="protection-heading" tone="dark">
              <p>
                An accident can change a family's finances overnight. Our home protection plan provides accidental death and dismemberment
                coverage, so the people you love can stay in the home you share.
              </p>
            </SectionHeading>
            <div className="mt-6">
              <CheckList
                tone="dark"
                items={[
                  "Accidental death and dismemberment coverage for members",
                  `Membership available separately for ${MEMBERSHIP_MONTHLY_PRICE} monthly`,
                  COVERAGE_START,
                ]}
              />
            </div>
          </div>
          <div className="rounded-3xl bg-white p-6 sm:p-8">
            <Illustration name="financial-protection" width={420} height={320} className="mx-auto h-auto w-full max-w-sm" />
          </div>
        </div>
        <div className="container-page mt-14">
          <h3 className="sr-only">The association in numbers</h3>
          <StatsBand />
        </div>
      </section>

      <section aria-labelledby="start-heading" className="py-16 sm:py-20">
        <div className="container-page">
          <div className="overflow-hidden rounded-3xl bg-gradient-to-br from-brand-50 to-white p-8 ring-1 ring-brand-100 sm:p-12">
            <div className="grid items-center gap-10 lg:grid-cols-[1.4fr_1fr]">
              <SectionHeading eyebrow="Join today" title="Ready to Get Started" id="start-heading">
                <p>
                  Become a member for {MEMBERSHIP_MONTHLY_PRICE} a month and get the education, tools and protection that help you keep your
                  home. Questions first? Our team replies within 24 hours.
                </p>
              </SectionHeading>
              <div className="flex flex-col gap-3 sm:flex-row lg:flex-col">
                {/* Without JavaScript the button submits to the benefits page, which shows the same facts. */}
                <form
                  action="/membership-benefits"
                  method="get"
                  onSubmit={(event) => {
                    event.preventDefault();
                    setMemberDialogOpen(true);
                  }}
                >
                  <button type="submit" aria-haspopup="dialog" className="btn-primary w-full px-6 py-3 text-base">
                    <Handshake className="h-5 w-5" aria-hidden /> Become a Member
                  </button>
                </form>
                <Link to="/contact-us" className="btn-outline w-full bg-white px-6 py-3 text-base">
                  <PhoneCall className="h-5 w-5" aria-hidden /> Contact Us Today
                </Link>
              </div>
            </div>
          </div>
        </div>
      </section>

      <BecomeMemberDialog open={memberDialogOpen} onOpenChange={setMemberDialogOpen} />
    </>
  );
}
