import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { CalendarDays, CalendarPlus, Check, ChevronDown, ChevronLeft, ChevronRight, FileJson, List, Printer } from "lucide-react";
import { loadDoneEvents, saveDoneEvents } from "./done-events";
import { downloadText } from "./download";
import { buildIcs, icsFileName } from "./ical";
import { buildJsonExport, jsonFileName } from "./json-export";
import { monthGrid } from "./month-grid";
import { MONTH_NAMES } from "~/platform/month-names";
import { MAINTENANCE_TASKS, tasksForYear, tasksInMonth, type MaintenanceCategory, type MaintenanceTask } from "./tasks";

const KNOWN_IDS = new Set(MAINTENANCE_TASKS.map((t) => t.id));
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const PRINT_ROOT_ID = "calendar-print";
const PRINT_CLASS = "printing-calendar";

const CATEGORY_STYLES: Record<MaintenanceCategory, string> = {
  HVAC: "bg-sky-100 text-sky-900",
  Safety: "bg-red-100 text-red-900",
  Exterior: "bg-amber-100 text-amber-900",
  Appliances: "bg-violet-100 text-violet-900",
  Plumbing: "bg-blue-100 text-blue-900",
  Yard: "bg-green-100 text-green-900",
  Prep: "bg-orange-100 text-orange-900",
  Interior: "bg-slate-200 text-slate-900",
};

function formatDay(iso: string) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
}

const loadDone = (year: number) =>
  typeof window === "undefined" ? new Set<string>() : loadDoneEvents(window.localStorage, year, KNOWN_IDS);

/** The year's done marks, read from and written to local storage (maintenance-done-events). */
function useDoneEvents(year: number) {
  const [done, setDone] = useState(() => loadDone(year));
  const [markedYear, setMarkedYear] = useState(year);
  if (markedYear !== year) {
    // The year turned while the calendar was open: its plan starts with nothing done.
    setMarkedYear(year);
    setDone(loadDone(year));
  }
  const toggle = useCallback(
    (id: string) => {
      setDone((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        saveDoneEvents(window.localStorage, year, next);
        return next;
      });
    },
    [year],
  );
  return { done, toggle };
}

/** Print/PDF: every month expanded in a print-only copy; the rest of the page is hidden while printing. */
function usePrint() {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (!printing) return;
    const root = document.documentElement;
    root.classList.add(PRINT_CLASS);
    const done = () => setPrinting(false);
    window.addEventListener("afterprint", done);
    const timer = setTimeout(() => window.print(), 50);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("afterprint", done);
      root.classList.remove(PRINT_CLASS);
    };
  }, [printing]);
  return { printing, print: () => setPrinting(true) };
}

/** The Home Maintenance Calendar dialog body (spec: public-side sections 2, 3, 4, 9). */
export function MaintenanceCalendar({ now = new Date() }: { now?: Date }) {
  const year = now.getFullYear();
  const currentMonth = now.getMonth() + 1;
  const tasks = useMemo(() => tasksForYear(year), [year]);
  const { done, toggle } = useDoneEvents(year);
  const [view, setView] = useState<"list" | "calendar">("list");
  const [showCompleted, setShowCompleted] = useState(true);
  const { printing, print } = usePrint();
  const showId = useId();

  const visible = showCompleted ? tasks : tasks.filter((t) => !done.has(t.id));
  const doneCount = tasks.filter((t) => done.has(t.id)).length;

  const exportAll = () => downloadText(icsFileName(), buildIcs(tasks), "text/calendar;charset=utf-8");
  const exportOne = (task: MaintenanceTask) => downloadText(icsFileName(task), buildIcs([task]), "text/calendar;charset=utf-8");
  const exportJson = () =>
    downloadText(jsonFileName(year), JSON.stringify(buildJsonExport(year, tasks, done), null, 2), "application/json");

  return (
    <div data-testid="maintenance-calendar">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label="View" className="inline-flex rounded-lg border border-slate-300 p-0.5">
          <ViewButton
            active={view === "list"}
            onClick={() => setView("list")}
            icon={<List className="h-4 w-4" aria-hidden />}
            label="List"
          />
          <ViewButton
            active={view === "calendar"}
            onClick={() => setView("calendar")}
            icon={<CalendarDays className="h-4 w-4" aria-hidden />}
            label="Calendar"
          />
        </div>
        <div className="flex items-center gap-2 text-sm">
          <input
            id={showId}
            type="checkbox"
            className="h-4 w-4 rounded border-slate-400"
            checked={showCompleted}
            onChange={(e) => setShowCompleted(e.target.checked)}
          />
          <label htmlFor={showId} className="font-medium text-slate-800">
            Show Completed
          </label>
        </div>
      </div>
      <p className="mt-3 text-sm text-slate-600" data-testid="calendar-progress" aria-live="polite">
        {doneCount} of {tasks.length} tasks done in {year}
      </p>

      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-outline px-3 py-1.5 text-sm" onClick={exportAll}>
          <CalendarPlus className="h-4 w-4" aria-hidden />
          Export All (.ics)
        </button>
        <button type="button" className="btn-outline px-3 py-1.5 text-sm" onClick={exportJson}>
          <FileJson className="h-4 w-4" aria-hidden />
          Export JSON
        </button>
        <button type="button" className="btn-outline px-3 py-1.5 text-sm" onClick={print}>
          <Printer className="h-4 w-4" aria-hidden />
          Print / PDF
        </button>
      </div>

      <div className="mt-5">
        {view === "list" ? (
          <ListView tasks={visible} done={done} currentMonth={currentMonth} onToggle={toggle} onExport={exportOne} />
        ) : (
          <CalendarView year={year} initialMonth={currentMonth} tasks={visible} done={done} onToggle={toggle} onExport={exportOne} />
        )}
      </div>
      {printing ? createPortal(<PrintCalendar year={year} tasks={visible} done={done} />, document.body) : null}
    </div>
  );
}

function ViewButton({ active, onClick, icon, label }: { active: boolean; onClick: () => void; icon: React.ReactNode; label: string }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={`inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"}`}
    >
      {icon}
      {label}
    </button>
  );
}

type TaskActions = { done: Set<string>; onToggle: (id: string) => void; onExport: (task: MaintenanceTask) => void };

function ListView({ tasks, currentMonth, ...actions }: { tasks: MaintenanceTask[]; currentMonth: number } & TaskActions) {
  const [open, setOpen] = useState<Set<number>>(() => new Set([currentMonth]));
  // The list opens on the current month (expanded), not on January with it far below.
  const currentRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    currentRef.current?.scrollIntoView({ block: "nearest" });
  }, []);
  const toggleMonth = (m: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(m)) next.delete(m);
      else next.add(m);
      return next;
    });
  return (
    <ul className="space-y-2" aria-label="Months">
      {MONTH_NAMES.map((name, i) => {
        const month = i + 1;
        const monthTasks = tasksInMonth(tasks, month);
        const doneInMonth = monthTasks.filter((t) => actions.done.has(t.id)).length;
        const expanded = open.has(month);
        const panelId = `maintenance-month-${month}`;
        return (
          <li
            key={name}
            ref={month === currentMonth ? currentRef : undefined}
            className="scroll-mt-2 rounded-lg border border-slate-200"
            data-testid="calendar-month"
          >
            <h3>
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggleMonth(month)}
                className="flex w-full items-center justify-between gap-3 px-4 py-3 text-left hover:bg-slate-50"
              >
                <span className="font-semibold text-brand-900">
                  {name}
                  {month === currentMonth ? (
                    <span className="ml-2 whitespace-nowrap rounded bg-brand-50 px-1.5 py-0.5 text-xs font-medium text-brand-800">
                      This month
                    </span>
                  ) : null}
                </span>
                <span className="flex shrink-0 items-center gap-2 whitespace-nowrap text-sm text-slate-600">
                  {doneInMonth}/{monthTasks.length} done
                  <ChevronDown className={`h-4 w-4 transition ${expanded ? "rotate-180" : ""}`} aria-hidden />
                </span>
              </button>
            </h3>
            {expanded ? (
              <div id={panelId} className="border-t border-slate-100 px-4 py-3">
                {monthTasks.length ? (
                  <ul className="space-y-3">
                    {monthTasks.map((t) => (
                      <TaskRow key={t.id} task={t} {...actions} />
                    ))}
                  </ul>
                ) : (
                  <p className="text-sm text-slate-600">All of this month's tasks are done.</p>
                )}
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function TaskRow({ task, done, onToggle, onExport }: { task: MaintenanceTask } & TaskActions) {
  const isDone = done.has(task.id);
  const checkId = useId();
  return (
    <li data-testid="maintenance-task" data-task-id={task.id} data-done={isDone} className="flex gap-3">
      <input
        id={checkId}
        type="checkbox"
        className="mt-1 h-4 w-4 shrink-0 rounded border-slate-400"
        checked={isDone}
        onChange={() => onToggle(task.id)}
        aria-describedby={`${checkId}-tip`}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={checkId} className={`font-medium ${isDone ? "text-slate-500 line-through" : "text-slate-900"}`}>
            {task.title}
          </label>
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${CATEGORY_STYLES[task.category]}`}>{task.category}</span>
          {isDone ? (
            <span className="inline-flex items-center gap-0.5 text-xs font-medium text-green-800">
              <Check className="h-3.5 w-3.5" aria-hidden />
              Done
            </span>
          ) : null}
        </div>
        <p className="text-xs text-slate-600">{formatDay(task.date)}</p>
        <p id={`${checkId}-tip`} className="mt-1 text-sm text-slate-700">
          {task.tip}
        </p>
        <button
          type="button"
          className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
          onClick={() => onExport(task)}
          aria-label={`Add to Calendar: "${task.title}" (.ics)`}
        >
          <CalendarPlus className="h-4 w-4" aria-hidden />
          Add to Calendar
        </button>
      </div>
    </li>
  );
}

function CalendarView({
  year,
  initialMonth,
  tasks,
  ...actions
}: { year: number; initialMonth: number; tasks: MaintenanceTask[] } & TaskActions) {
  const [month, setMonth] = useState(initialMonth);
  const [day, setDay] = useState<string | null>(null);
  const weeks = monthGrid(year, month, tasks);
  const go = (delta: number) => {
    setMonth((m) => ((m - 1 + delta + 12) % 12) + 1);
    setDay(null);
  };
  const listed = day ? tasks.filter((t) => t.date === day) : tasksInMonth(tasks, month);
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <button type="button" className="btn-ghost px-2" onClick={() => go(-1)} aria-label="Previous month">
          <ChevronLeft className="h-5 w-5" aria-hidden />
        </button>
        <h3 className="text-lg font-semibold text-brand-900" aria-live="polite">
          {MONTH_NAMES[month - 1]} {year}
        </h3>
        <button type="button" className="btn-ghost px-2" onClick={() => go(1)} aria-label="Next month">
          <ChevronRight className="h-5 w-5" aria-hidden />
        </button>
      </div>
      <table className="mt-2 w-full table-fixed border-collapse text-xs" data-testid="month-grid">
        <caption className="sr-only">
          Maintenance tasks in {MONTH_NAMES[month - 1]} {year}
        </caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d} scope="col" className="py-1 font-semibold text-slate-600">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, wi) => (
            <tr key={wi}>
              {week.map((cell, ci) => (
                <td
                  key={ci}
                  className={`h-20 border border-slate-200 p-1 align-top ${cell.date && cell.date === day ? "bg-brand-50" : ""}`}
                >
                  {cell.day ? (
                    <>
                      <span className="block text-right text-slate-600">{cell.day}</span>
                      <ul className="space-y-0.5">
                        {cell.shown.map((t) => (
                          <li
                            key={t.id}
                            data-testid="grid-task"
                            className={`truncate rounded px-1 py-0.5 ${CATEGORY_STYLES[t.category]} ${actions.done.has(t.id) ? "line-through opacity-70" : ""}`}
                            title={t.title}
                          >
                            {t.title}
                          </li>
                        ))}
                      </ul>
                      {cell.more > 0 ? (
                        <button
                          type="button"
                          className="mt-0.5 text-xs font-semibold text-brand-700 hover:underline"
                          onClick={() => setDay(cell.date)}
                          aria-label={`+${cell.more} more tasks on ${formatDay(cell.date!)}`}
                        >
                          +{cell.more} more
                        </button>
                      ) : null}
                    </>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h4 className="font-semibold text-brand-900">{day ? `Tasks on ${formatDay(day)}` : `Tasks in ${MONTH_NAMES[month - 1]}`}</h4>
          {day ? (
            <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={() => setDay(null)}>
              Show the whole month
            </button>
          ) : null}
        </div>
        {listed.length ? (
          <ul className="mt-2 space-y-3">
            {listed.map((t) => (
              <TaskRow key={t.id} task={t} {...actions} />
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-600">All of this month's tasks are done.</p>
        )}
      </div>
    </div>
  );
}

/** The print/PDF copy: every month expanded. */
function PrintCalendar({ year, tasks, done }: { year: number; tasks: MaintenanceTask[]; done: Set<string> }) {
  return (
    <div id={PRINT_ROOT_ID} data-testid="calendar-print">
      <h1 className="text-2xl font-bold">Home Maintenance Calendar {year}</h1>
      {MONTH_NAMES.map((name, i) => (
        <section key={name} className="mt-4 break-inside-avoid" data-testid="print-month">
          <h2 className="border-b border-slate-400 text-lg font-semibold">{name}</h2>
          <ul className="mt-1 space-y-1.5">
            {tasksInMonth(tasks, i + 1).map((t) => (
              <li key={t.id} data-testid="print-task" className="text-sm">
                <span className="font-semibold">
                  {done.has(t.id) ? "☑" : "☐"} {t.title}
                </span>{" "}
                <span className="text-slate-600">
                  ({formatDay(t.date)}, {t.category})
                </span>
                <br />
                {t.tip}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
