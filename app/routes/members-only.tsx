import { Link } from "react-router";
import { BookOpen, CalendarDays, LogIn, PlayCircle, UserPlus } from "lucide-react";
import type { Route } from "./+types/members-only";
import { pageMeta } from "~/components/seo";
import { JoiningNoteForVisitors } from "~/components/JoiningNote";
import { FeatureCard } from "~/features/marketing/FeatureCard";
import { Illustration, SectionHeading } from "~/features/marketing/Section";
import { MEMBERSHIP_MONTHLY_PRICE } from "~/features/marketing/membership";
import { PUBLIC_PAGE } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Members Only",
    description: "Join 50,000+ homeowners in the members-only knowledge center, or sign in with your certificate number.",
    noindex: true,
  });

export default function MembersOnlyPage() {
  return (
    <>
      <section className="overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
        <div className="container-page grid items-center gap-10 py-16 sm:py-20 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-400">Members Only</p>
            <h1 className="mt-3 font-serif text-4xl font-bold leading-tight sm:text-5xl">Join 50,000+ Homeowners</h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-brand-100">
              This part of the site is reserved for members. Become a member to unlock our knowledge center, maintenance calendar and video
              tutorials, or sign in if you already have your certificate.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/application" className="btn-accent px-6 py-3 text-base">
                <UserPlus className="h-5 w-5" aria-hidden /> Become a Member
              </Link>
              <Link to="/login" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                <LogIn className="h-5 w-5" aria-hidden /> Member Login
              </Link>
            </div>
            <JoiningNoteForVisitors tone="dark" className="mt-5 max-w-xl text-sm leading-relaxed text-brand-100" />
            <p className="mt-3 text-sm text-brand-100">Membership is available for {MEMBERSHIP_MONTHLY_PRICE} monthly.</p>
          </div>
          <div className="mx-auto w-full max-w-md">
            <Illustration name="member-card" width={420} height={300} aboveTheFold />
          </div>
        </div>
      </section>

      <section aria-labelledby="inside-heading" className="bg-slate-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading
            eyebrow="Inside the members area"
            title="Made for homeowners who like to be prepared"
            id="inside-heading"
            align="center"
          >
            <p>Everything in the members area is chosen to save you time, money and worry.</p>
          </SectionHeading>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            <li>
              <FeatureCard icon={BookOpen} title="Knowledge Center">
                Fresh articles on home improvement, decor, green living, insurance and more, gathered from trusted sources.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={CalendarDays} title="Maintenance Calendar">
                Four seasonal tasks a month, all year long. Tick them off and export them to the calendar you already use.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={PlayCircle} title="Video Tutorials">
                Short, practical videos on security, remodeling, energy saving, smart home technology and more.
              </FeatureCard>
            </li>
          </ul>
          <p className="mt-12 text-center text-slate-700">
            Already a member? Your certificate number is printed on your membership certificate.{" "}
            <Link to="/login" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
              Sign in here
            </Link>
            .
          </p>
        </div>
      </section>
    </>
  );
}
