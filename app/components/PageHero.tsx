import type { ReactNode } from "react";

/** The banner at the top of inner pages. */
export function PageHero({ eyebrow, title, children }: { eyebrow?: string; title: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
      <div className="container-page py-14 sm:py-20">
        {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wider text-accent-400">{eyebrow}</p> : null}
        <h1 className="mt-2 max-w-3xl font-serif text-3xl font-bold sm:text-4xl lg:text-5xl">{title}</h1>
        {children ? <div className="mt-4 max-w-2xl text-lg text-brand-100">{children}</div> : null}
      </div>
    </section>
  );
}
