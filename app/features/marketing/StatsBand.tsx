import { ASSOCIATION_STATS } from "./membership";

/** The three marketing figures, for a dark band. */
export function StatsBand() {
  return (
    <dl className="grid gap-6 sm:grid-cols-3">
      {ASSOCIATION_STATS.map((stat) => (
        <div key={stat.label} className="flex flex-col rounded-2xl bg-white/10 px-6 py-8 text-center ring-1 ring-white/15">
          <dt className="order-2 mt-2 text-sm font-medium uppercase tracking-wider text-brand-100">{stat.label}</dt>
          <dd className="order-1 font-serif text-4xl font-bold text-accent-400 sm:text-5xl">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
