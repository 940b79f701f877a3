import type { ReactNode } from "react";

/** The eyebrow, heading and intro that open a marketing section. */
export function SectionHeading({
  eyebrow,
  title,
  id,
  children,
  align = "left",
  tone = "light",
}: {
  eyebrow?: string;
  title: string;
  id?: string;
  children?: ReactNode;
  align?: "left" | "center";
  tone?: "light" | "dark";
}) {
  const centered = align === "center" ? "mx-auto text-center" : "";
  const dark = tone === "dark";
  return (
    <div className={`max-w-3xl ${centered}`}>
      {eyebrow ? (
        <p className={`text-sm font-semibold uppercase tracking-wider ${dark ? "text-accent-400" : "text-brand-600"}`}>{eyebrow}</p>
      ) : null}
      <h2 id={id} className={`mt-2 font-serif text-3xl font-bold sm:text-4xl ${dark ? "text-white" : "text-brand-900"}`}>
        {title}
      </h2>
      {children ? <div className={`mt-4 text-lg leading-relaxed ${dark ? "text-brand-100" : "text-slate-700"}`}>{children}</div> : null}
    </div>
  );
}

/** A decorative picture served by the site itself (public/illustrations). */
export function Illustration({
  name,
  className = "h-auto w-full",
  width,
  height,
  aboveTheFold = false,
}: {
  name: string;
  /** Load at once instead of lazily (pictures visible on arrival). */
  aboveTheFold?: boolean;
  /** Sizing classes; the default fills the width and keeps the ratio. */
  className?: string;
  width: number;
  height: number;
}) {
  return (
    <img
      src={`/illustrations/${name}.svg`}
      alt=""
      width={width}
      height={height}
      loading={aboveTheFold ? "eager" : "lazy"}
      // A picture on arrival is often the page's largest paint (the home page's hero on a phone): fetched first.
      fetchPriority={aboveTheFold ? "high" : undefined}
      decoding={aboveTheFold ? undefined : "async"}
      className={className}
    />
  );
}
