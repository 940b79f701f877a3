import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A white card with an icon, a heading and a short text: benefits, services, promises. */
export function FeatureCard({
  icon: Icon,
  title,
  children,
  headingLevel = 3,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition-shadow hover:shadow-md">
      <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <Icon className="h-6 w-6" aria-hidden />
      </span>
      <Heading className="mt-5 text-xl font-semibold text-brand-900">{title}</Heading>
      <div className="mt-3 flex-1 leading-relaxed text-slate-700">{children}</div>
    </article>
  );
}

/** A list with check marks. */
export function CheckList({ items, tone = "light" }: { items: readonly ReactNode[]; tone?: "light" | "dark" }) {
  return (
    <ul className="space-y-3">
      {items.map((item, i) => (
        <li key={i} className="flex items-start gap-3">
          <svg
            viewBox="0 0 20 20"
            className={`mt-1 h-5 w-5 shrink-0 ${tone === "dark" ? "text-accent-400" : "text-brand-600"}`}
            aria-hidden
          >
            <circle cx="10" cy="10" r="10" fill="currentColor" opacity=".15" />
            <path d="m5.5 10.5 3 3 6-6.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className={tone === "dark" ? "text-brand-50" : "text-slate-700"}>{item}</span>
        </li>
      ))}
    </ul>
  );
}
