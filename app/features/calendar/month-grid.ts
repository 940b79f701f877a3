import type { MaintenanceTask } from "./tasks";

export const MAX_TASKS_PER_DAY = 2;

export interface GridDay {
  /** null for the blank cells before the 1st and after the last day. */
  day: number | null;
  date: string | null;
  shown: MaintenanceTask[];
  /** Tasks beyond the first two: '+N more'. */
  more: number;
}

/** A month as weeks of 7 cells (Sunday first), each day with at most two tasks shown. */
export function monthGrid(year: number, month: number, tasks: ReadonlyArray<MaintenanceTask>): GridDay[][] {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const cells: GridDay[] = Array.from({ length: first }, () => ({ day: null, date: null, shown: [], more: 0 }));
  for (let day = 1; day <= days; day++) {
    const date = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    const onDay = tasks.filter((t) => t.date === date);
    cells.push({ day, date, shown: onDay.slice(0, MAX_TASKS_PER_DAY), more: Math.max(0, onDay.length - MAX_TASKS_PER_DAY) });
  }
  while (cells.length % 7) cells.push({ day: null, date: null, shown: [], more: 0 });
  const weeks: GridDay[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
