import { type ColumnDef, type Table } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, CircleAlert, LoaderCircle } from "lucide-react";
import type { ReactNode } from "react";
import { PAGE_SIZES, type Pagination } from "~/platform/paging";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** The column's name, shown beside its value on phone cards. */
    label?: string;
    /** The row's title on phone cards (the row header in the table). */
    primary?: boolean;
    /** Buttons: no label on phone cards, placed at the bottom. */
    actions?: boolean;
    /** The column's header is its own content (a select-all checkbox), rendered as is. */
    customHeader?: boolean;
  }
}

export type AdminColumn<T> = ColumnDef<T, unknown>;

/**
 * A header's or cell's content, its template called as a function. TanStack's flexRender
 * mounts a function template as a component, so a column list rebuilt on a render (a row
 * busy, a handler changed) remounted every cell: the control in use lost the keyboard focus
 * and a dialog's opener was gone when it closed. A cell template uses no hooks.
 */
function render<C>(template: ReactNode | ((context: C) => ReactNode) | undefined, context: C): ReactNode {
  return typeof template === "function" ? template(context) : (template ?? null);
}

/**
 * An admin table from a TanStack Table instance: a real <table> (row headers, sortable
 * column buttons with aria-sort) on wide screens and a list of cards on phones, both from the
 * same row model. Sorting and paging are done by the server (manual mode).
 */
export function DataTable<T>({
  table,
  caption,
  testId,
  rowBusy,
}: {
  table: Table<T>;
  caption: string;
  testId: string;
  /** A row whose change is in flight: dimmed and marked aria-busy. */
  rowBusy?: (row: T) => boolean;
}) {
  const rows = table.getRowModel().rows;
  return (
    <>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm" data-testid={`${testId}-table`}>
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  const sorted = header.column.getIsSorted();
                  const label = meta?.label ?? "";
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className="py-2 pr-4 font-semibold"
                      aria-sort={
                        header.column.getCanSort()
                          ? sorted === "asc"
                            ? "ascending"
                            : sorted === "desc"
                              ? "descending"
                              : "none"
                          : undefined
                      }
                    >
                      {meta?.customHeader ? (
                        render(header.column.columnDef.header, header.getContext())
                      ) : meta?.actions ? (
                        <span className="sr-only">Actions</span>
                      ) : header.column.getCanSort() ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-brand-800"
                        >
                          {label}
                          {sorted === "asc" ? (
                            <ArrowUp className="h-3.5 w-3.5" aria-hidden />
                          ) : sorted === "desc" ? (
                            <ArrowDown className="h-3.5 w-3.5" aria-hidden />
                          ) : (
                            <ArrowUpDown className="h-3.5 w-3.5 opacity-50" aria-hidden />
                          )}
                        </button>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr
                key={row.id}
                data-testid={`${testId}-row`}
                aria-busy={rowBusy?.(row.original) || undefined}
                className={`align-middle ${rowBusy?.(row.original) ? "opacity-60" : ""}`}
              >
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const content = render(cell.column.columnDef.cell, cell.getContext());
                  return meta?.primary ? (
                    <th key={cell.id} scope="row" className="py-3 pr-4 font-semibold text-brand-900">
                      {content}
                    </th>
                  ) : (
                    <td key={cell.id} className={meta?.actions ? "py-2 text-right" : "py-3 pr-4 text-slate-700"}>
                      {content}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden" aria-label={caption} data-testid={`${testId}-cards`}>
        {rows.map((row) => {
          const cells = row.getVisibleCells();
          const primary = cells.find((c) => c.column.columnDef.meta?.primary);
          const actions = cells.find((c) => c.column.columnDef.meta?.actions);
          const rest = cells.filter((c) => c !== primary && c !== actions);
          return (
            <li
              key={row.id}
              data-testid={`${testId}-card`}
              aria-busy={rowBusy?.(row.original) || undefined}
              className={`rounded-lg border border-slate-200 p-4 ${rowBusy?.(row.original) ? "opacity-60" : ""}`}
            >
              {primary ? (
                <p className="font-semibold text-brand-900">{render(primary.column.columnDef.cell, primary.getContext())}</p>
              ) : null}
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {rest.map((cell) => (
                  <div key={cell.id} className="contents">
                    <dt className="text-slate-600">{cell.column.columnDef.meta?.label}</dt>
                    <dd className="min-w-0 break-words text-slate-800">{render(cell.column.columnDef.cell, cell.getContext())}</dd>
                  </div>
                ))}
              </dl>
              {actions ? (
                <div className="mt-3 border-t border-slate-100 pt-2">{render(actions.column.columnDef.cell, actions.getContext())}</div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** 'Showing 26-50 of 120', page size choice and Previous/Next, for server-side pages. */
export function PageControls({
  pagination,
  label,
  onPage,
  onPageSize,
  busy,
}: {
  pagination: Pagination;
  label: string;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  busy?: boolean;
}) {
  const { page, pageSize, total, totalPages } = pagination;
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const sizeId = `${label.replace(/\W+/g, "-").toLowerCase()}-page-size`;
  return (
    <nav aria-label={`${label} pages`} className="mt-5 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-700" aria-live="polite">
        Showing {from}-{to} of {total}
        {totalPages > 1 ? ` · Page ${page} of ${totalPages}` : ""}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={sizeId} className="text-slate-700">
          Rows per page
        </label>
        <select id={sizeId} className="field-input w-auto py-1.5" value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="button" className="btn-outline px-3" onClick={() => onPage(page - 1)} disabled={busy || page <= 1}>
          <ChevronLeft className="h-4 w-4" aria-hidden />
          Previous
        </button>
        <button type="button" className="btn-outline px-3" onClick={() => onPage(page + 1)} disabled={busy || page >= totalPages}>
          Next
          <ChevronRight className="h-4 w-4" aria-hidden />
        </button>
      </div>
    </nav>
  );
}

/** Loading, failure and empty states around a table. */
export function TableState({
  state,
  loadingText,
  errorText,
  emptyText,
  onRetry,
  children,
}: {
  state: "loading" | "error" | "empty" | "ready";
  loadingText: string;
  errorText: string;
  emptyText: ReactNode;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (state === "loading")
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
        {loadingText}
      </p>
    );
  if (state === "error")
    return (
      <div role="alert" className="flex flex-col items-center rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center">
        <CircleAlert className="h-8 w-8 text-red-600" aria-hidden />
        <p className="mt-3 font-semibold text-red-900">{errorText}</p>
        <button type="button" className="btn-primary mt-5" onClick={onRetry}>
          Try Again
        </button>
      </div>
    );
  if (state === "empty")
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center text-slate-700">{emptyText}</div>
    );
  return <>{children}</>;
}
