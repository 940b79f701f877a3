/**
 * Completed tasks, kept in the browser (spec: public-side section 3) under the
 * maintenance-done-events key. The plan starts over every year, so a mark belongs to a year:
 * it is stored as `<task id>-<year>` ("jan-furnace-filter-2026"), and a year shows only its
 * own marks. The code reading them works with plain task ids of one year.
 */
export const DONE_EVENTS_KEY = "maintenance-done-events";

/**
 * Marks stored before they carried a year (a bare task id) were all made in 2026, the year
 * the calendar opened; they are read as that year's and rewritten with it on the next save.
 */
export const UNDATED_MARKS_YEAR = 2026;

/** The stored form of "this task is done in this year". */
export const doneEventId = (taskId: string, year: number) => `${taskId}-${year}`;

const DATED = /^(.+)-(\d{4})$/;

type Marks = Map<number, Set<string>>;

/** Every stored mark, by year; anything unreadable (or an unknown task) counts as nothing done. */
function parseMarks(raw: string | null, knownIds?: ReadonlySet<string>): Marks {
  const marks: Marks = new Map();
  if (!raw) return marks;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return marks;
  }
  if (!Array.isArray(value)) return marks;
  for (const entry of value) {
    if (typeof entry !== "string") continue;
    const dated = DATED.exec(entry);
    const [taskId, year] = dated ? [dated[1], Number(dated[2])] : [entry, UNDATED_MARKS_YEAR];
    if (knownIds && !knownIds.has(taskId)) continue;
    if (!marks.has(year)) marks.set(year, new Set());
    marks.get(year)!.add(taskId);
  }
  return marks;
}

/** The tasks done in `year`, from the stored text. */
export function parseDoneEvents(raw: string | null, year: number, knownIds?: ReadonlySet<string>): Set<string> {
  return parseMarks(raw, knownIds).get(year) ?? new Set();
}

/** The stored text with `year`'s marks replaced by `done`; other years' marks are kept. */
export function serializeDoneEvents(previous: string | null, year: number, done: ReadonlySet<string>): string {
  const marks = parseMarks(previous);
  marks.set(year, new Set(done));
  const ids = [...marks].flatMap(([y, tasks]) => [...tasks].map((id) => doneEventId(id, y)));
  return JSON.stringify(ids.sort());
}

export function loadDoneEvents(storage: Pick<Storage, "getItem"> | undefined, year: number, knownIds?: ReadonlySet<string>): Set<string> {
  try {
    return parseDoneEvents(storage?.getItem(DONE_EVENTS_KEY) ?? null, year, knownIds);
  } catch {
    return new Set();
  }
}

export function saveDoneEvents(storage: Pick<Storage, "getItem" | "setItem"> | undefined, year: number, done: ReadonlySet<string>): void {
  try {
    storage?.setItem(DONE_EVENTS_KEY, serializeDoneEvents(storage.getItem(DONE_EVENTS_KEY), year, done));
  } catch {
    // Private browsing or a full quota: the marks last for this visit only.
  }
}
