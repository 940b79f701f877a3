import { Link } from "react-router";
import type { Route } from "./+types/home";
import { pageMeta } from "~/components/seo";
import { ABOUT_SECTION_ID, useAboutUs } from "~/components/useAboutUs";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "American Homeowners Association",
    description:
      "Member benefits, education and a home protection plan for homeowners, new owners and recent refinancers.",
  });

export default function Home() {
  const goAbout = useAboutUs();
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
        <div className="container-page py-20 sm:py-28">
          <h1 className="max-w-3xl font-serif text-4xl font-bold sm:text-5xl">American Homeowners Association</h1>
          <p className="mt-5 max-w-2xl text-lg text-brand-100">
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
      </section>
      <section id={ABOUT_SECTION_ID} className="container-page scroll-mt-32 py-16">
        <h2 className="font-serif text-3xl font-bold text-brand-900">About Us</h2>
        <p className="mt-4 max-w-3xl text-lg text-slate-700">
          Since 2022 the association has helped homeowners, especially new owners and recent refinancers, buy, protect and
          keep their homes.
        </p>
      </section>
    </>
  );
}
