import { MONTH_NAMES } from "~/platform/month-names";
import { tasksInMonth, type MaintenanceTask } from "./tasks";

/** The JSON download (spec: public-side section 2): year, calendar, doneEvents and exportDate. */
export interface CalendarJsonExport {
  year: number;
  calendar: Array<{
    month: number;
    name: string;
    tasks: Array<MaintenanceTask & { done: boolean }>;
  }>;
  doneEvents: string[];
  exportDate: string;
}

export function buildJsonExport(
  year: number,
  tasks: ReadonlyArray<MaintenanceTask>,
  done: ReadonlySet<string>,
  now = new Date(),
): CalendarJsonExport {
  return {
    year,
    calendar: MONTH_NAMES.map((name, i) => ({
      month: i + 1,
      name,
      tasks: tasksInMonth(tasks, i + 1).map((t) => ({ ...t, done: done.has(t.id) })),
    })),
    doneEvents: tasks.filter((t) => done.has(t.id)).map((t) => t.id),
    exportDate: now.toISOString(),
  };
}

export function jsonFileName(year: number): string {
  return `home-maintenance-calendar-${year}.json`;
}
