import { Search } from "lucide-react";
import type { ReactNode } from "react";
import type { useSearchBox } from "./useAddressQuery";

type SearchBox = ReturnType<typeof useSearchBox>;

/** An admin list's filter bar: a search form whose Enter applies the typed search at once. */
export function ListSearchForm({ box, className, children }: { box: SearchBox; className: string; children: ReactNode }) {
  return (
    <form
      role="search"
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        box.submit();
      }}
    >
      {children}
    </form>
  );
}

/** The search box of an admin list (useSearchBox: applied after a pause, kept in the address). */
export function SearchField({
  box,
  id,
  label,
  placeholder,
  maxLength = 100,
  className,
}: {
  box: SearchBox;
  id: string;
  label: string;
  placeholder: string;
  maxLength?: number;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
        <input
          id={id}
          type="search"
          className="field-input pl-9"
          placeholder={placeholder}
          value={box.text}
          maxLength={maxLength}
          onChange={(e) => box.type(e.target.value)}
        />
      </div>
    </div>
  );
}
