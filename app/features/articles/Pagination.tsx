import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { pageItems } from "./pagination";

/** Smooth unless the visitor asked for reduced motion. */
export function scrollToSection(id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
}

/**
 * Previous/Next plus the first, the last and the current page ±1, with ellipses for gaps.
 * Plain links (they work without JavaScript); with it, the page changes in place and scrolls
 * smoothly to the articles section.
 */
export function Pagination({
  page,
  totalPages,
  hrefFor,
  scrollTargetId,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
  scrollTargetId: string;
}) {
  if (totalPages <= 1) return null;
  const onNavigate = () => scrollToSection(scrollTargetId);
  // Compact below `sm`, so the whole pager (up to seven page entries) stays on one line at 320 px.
  const base =
    "inline-flex h-10 min-w-8 shrink-0 items-center justify-center gap-1 rounded-md border px-1.5 text-sm font-semibold sm:min-w-10 sm:px-3";
  const idle = `${base} border-slate-300 bg-white text-slate-700 hover:border-brand-500 hover:text-brand-800`;
  const disabled = `${base} border-slate-200 bg-slate-50 text-slate-400`;
  return (
    <nav aria-label="Article pages" className="mt-10 flex items-center justify-center gap-1 sm:gap-2">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} preventScrollReset onClick={onNavigate} className={idle} rel="prev">
          <ChevronLeft className="h-4 w-4" aria-hidden />
          <NavWord>Previous</NavWord>
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          <ChevronLeft className="h-4 w-4" aria-hidden />
          <NavWord>Previous</NavWord>
        </span>
      )}
      <ul className="flex items-center gap-1 sm:gap-2">
        {pageItems(page, totalPages).map((item) =>
          typeof item === "number" ? (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                preventScrollReset
                onClick={onNavigate}
                aria-current={item === page ? "page" : undefined}
                className={item === page ? `${base} border-brand-700 bg-brand-700 text-white` : idle}
              >
                {item}
              </Link>
            </li>
          ) : (
            <li key={item} aria-hidden className="px-0.5 text-slate-500 sm:px-1">
              …
            </li>
          ),
        )}
      </ul>
      {page < totalPages ? (
        <Link to={hrefFor(page + 1)} preventScrollReset onClick={onNavigate} className={idle} rel="next">
          <NavWord>Next</NavWord>
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          <NavWord>Next</NavWord>
          <ChevronRight className="h-4 w-4" aria-hidden />
        </span>
      )}
    </nav>
  );
}

/** 'Previous'/'Next': shown from `sm` up; on phones the chevron carries it and the word is kept for screen readers. */
function NavWord({ children }: { children: string }) {
  return <span className="sr-only sm:not-sr-only">{children}</span>;
}
