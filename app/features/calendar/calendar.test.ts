import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { DONE_EVENTS_KEY, UNDATED_MARKS_YEAR, loadDoneEvents, parseDoneEvents, saveDoneEvents } from "./done-events";
import { buildIcs, escapeText, foldLine, taskUid } from "./ical";
import { buildJsonExport } from "./json-export";
import { MAX_TASKS_PER_DAY, monthGrid } from "./month-grid";
import { MAINTENANCE_CATEGORIES, MAINTENANCE_TASKS, tasksForYear, type MaintenanceTask } from "./tasks";

const octets = (s: string) => Buffer.byteLength(s, "utf8");

describe("built-in maintenance tasks", () => {
  it("are 48, four in every month, with unique ids and known categories", () => {
    expect(MAINTENANCE_TASKS).toHaveLength(48);
    for (let month = 1; month <= 12; month++) {
      expect(
        MAINTENANCE_TASKS.filter((t) => t.month === month),
        `month ${month}`,
      ).toHaveLength(4);
    }
    expect(new Set(MAINTENANCE_TASKS.map((t) => t.id)).size).toBe(48);
    for (const t of MAINTENANCE_TASKS) {
      expect(MAINTENANCE_CATEGORIES, t.id).toContain(t.category);
      expect(t.title.trim().length, t.id).toBeGreaterThan(5);
      expect(t.tip.trim().length, t.id).toBeGreaterThan(30);
      expect(t.day >= 1 && t.day <= 28, t.id).toBe(true);
    }
  });

  it("use every category", () => {
    expect(new Set(MAINTENANCE_TASKS.map((t) => t.category))).toEqual(new Set(MAINTENANCE_CATEGORIES));
  });

  it("are placed in the requested year with an ISO date, in date order", () => {
    const tasks = tasksForYear(2027);
    expect(tasks.every((t) => t.date.startsWith("2027-") && /^\d{4}-\d{2}-\d{2}$/.test(t.date))).toBe(true);
    expect(tasks.map((t) => t.date)).toEqual([...tasks.map((t) => t.date)].sort());
    const furnace = tasks.find((t) => t.id === "jan-furnace-filter")!;
    expect(furnace.date).toBe("2027-01-04");
  });
});

describe("month grid", () => {
  it("shows at most two tasks a day and counts the rest as '+N more'", () => {
    const tasks = tasksForYear(2025);
    const weeks = monthGrid(2025, 1, tasks);
    const cells = weeks.flat();
    expect(cells.every((c) => c.shown.length <= MAX_TASKS_PER_DAY)).toBe(true);
    const jan4 = cells.find((c) => c.date === "2025-01-04")!;
    expect(jan4.shown).toHaveLength(2);
    expect(jan4.more).toBe(1);
    // January 2025 starts on a Wednesday: three blank cells, 31 days, weeks of seven.
    expect(cells.slice(0, 3).every((c) => c.day === null)).toBe(true);
    expect(cells.filter((c) => c.day !== null)).toHaveLength(31);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });

  it("handles leap years", () => {
    expect(
      monthGrid(2028, 2, [])
        .flat()
        .filter((c) => c.day !== null),
    ).toHaveLength(29);
    expect(
      monthGrid(2027, 2, [])
        .flat()
        .filter((c) => c.day !== null),
    ).toHaveLength(28);
  });
});

describe("done events in local storage", () => {
  class MemoryStorage {
    map = new Map<string, string>();
    getItem(k: string) {
      return this.map.get(k) ?? null;
    }
    setItem(k: string, v: string) {
      this.map.set(k, v);
    }
  }

  it("round-trips under the maintenance-done-events key, each mark with its year", () => {
    const storage = new MemoryStorage();
    saveDoneEvents(storage, 2027, new Set(["mar-gutters", "jan-furnace-filter"]));
    expect(DONE_EVENTS_KEY).toBe("maintenance-done-events");
    expect(JSON.parse(storage.getItem(DONE_EVENTS_KEY)!)).toEqual(["jan-furnace-filter-2027", "mar-gutters-2027"]);
    expect(loadDoneEvents(storage, 2027)).toEqual(new Set(["jan-furnace-filter", "mar-gutters"]));
  });

  it("a year shows only its own marks: the plan starts over in January (issue 14)", () => {
    const storage = new MemoryStorage();
    saveDoneEvents(storage, 2026, new Set(["jan-furnace-filter", "may-deck"]));
    expect(loadDoneEvents(storage, 2027)).toEqual(new Set());
    saveDoneEvents(storage, 2027, new Set(["may-deck"]));
    // Saving one year keeps the others.
    expect(loadDoneEvents(storage, 2026)).toEqual(new Set(["jan-furnace-filter", "may-deck"]));
    expect(loadDoneEvents(storage, 2027)).toEqual(new Set(["may-deck"]));
    saveDoneEvents(storage, 2027, new Set());
    expect(JSON.parse(storage.getItem(DONE_EVENTS_KEY)!)).toEqual(["jan-furnace-filter-2026", "may-deck-2026"]);
  });

  it("reads marks saved without a year as 2026's, and writes them back with it", () => {
    expect(UNDATED_MARKS_YEAR).toBe(2026);
    const storage = new MemoryStorage();
    storage.setItem(DONE_EVENTS_KEY, JSON.stringify(["mar-gutters"]));
    expect(loadDoneEvents(storage, 2026)).toEqual(new Set(["mar-gutters"]));
    expect(loadDoneEvents(storage, 2027)).toEqual(new Set());
    saveDoneEvents(storage, 2027, new Set(["may-deck"]));
    expect(JSON.parse(storage.getItem(DONE_EVENTS_KEY)!)).toEqual(["mar-gutters-2026", "may-deck-2027"]);
  });

  it("treats garbage as nothing done and drops unknown ids", () => {
    expect(parseDoneEvents("{not json", 2026)).toEqual(new Set());
    expect(parseDoneEvents('{"a":1}', 2026)).toEqual(new Set());
    expect(parseDoneEvents('["mar-gutters-2026", 5, null, "gone-2026", "mar-gutters-20x6"]', 2026, new Set(["mar-gutters"]))).toEqual(
      new Set(["mar-gutters"]),
    );
  });

  it("survives a storage that throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
    };
    expect(loadDoneEvents(broken, 2026)).toEqual(new Set());
    expect(() => saveDoneEvents(broken, 2026, new Set(["x"]))).not.toThrow();
  });
});

describe("iCalendar export", () => {
  const now = new Date("2025-03-09T14:05:06.789Z");
  const tricky: MaintenanceTask = {
    id: "test-task",
    title: "Clean gutters, downspouts; and the \\ drain",
    tip: `Line one\nLine two, with commas; semicolons and a backslash \\. ${"Ünïcødé fold test ✓ ".repeat(12)}\u0007`,
    month: 3,
    day: 31,
    category: "Exterior",
    date: "2025-03-31",
  };

  it("escapes TEXT values", () => {
    expect(escapeText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
  });

  it("folds at 75 octets without splitting a character", () => {
    const line = `DESCRIPTION:${"é".repeat(100)}😀😀😀`;
    const folded = foldLine(line).split("\r\n");
    expect(folded.length).toBeGreaterThan(1);
    for (const part of folded) expect(octets(part)).toBeLessThanOrEqual(75);
    expect(folded.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(folded.map((p, i) => (i ? p.slice(1) : p)).join("")).toBe(line);
    expect(foldLine("SHORT:x")).toBe("SHORT:x");
  });

  it("is valid RFC 5545 that ical.js reads back: CRLF, folding, UID, DTSTAMP, all-day dates", () => {
    const text = buildIcs([tricky], now);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = text.split("\r\n").slice(0, -1);
    for (const line of lines) expect(octets(line), line).toBeLessThanOrEqual(75);
    expect(lines.some((l) => l.startsWith(" "))).toBe(true);

    const cal = new ICAL.Component(ICAL.parse(text));
    expect(cal.getFirstPropertyValue("version")).toBe("2.0");
    expect(cal.getFirstPropertyValue("prodid")).toBeTruthy();
    const [vevent] = cal.getAllSubcomponents("vevent");
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe(taskUid(tricky));
    expect(event.summary).toBe(tricky.title);
    expect(event.description).toBe(tricky.tip.replace("\u0007", ""));
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe("2025-03-31");
    expect(event.endDate.toString()).toBe("2025-04-01");
    expect(String(vevent.getFirstPropertyValue("dtstamp"))).toBe("2025-03-09T14:05:06Z");
    expect(vevent.getFirstPropertyValue("categories")).toBe("Exterior");
  });

  it("exports all 48 tasks with distinct UIDs", () => {
    const tasks = tasksForYear(2025);
    const cal = new ICAL.Component(ICAL.parse(buildIcs(tasks, now)));
    const events = cal.getAllSubcomponents("vevent");
    expect(events).toHaveLength(48);
    const uids = events.map((e) => e.getFirstPropertyValue("uid"));
    expect(new Set(uids).size).toBe(48);
    expect(events.every((e) => e.hasProperty("dtstamp"))).toBe(true);
  });
});

describe("JSON export", () => {
  it("holds year, calendar by month, doneEvents and exportDate", () => {
    const tasks = tasksForYear(2026);
    const now = new Date("2026-05-01T10:00:00.000Z");
    const out = buildJsonExport(2026, tasks, new Set(["may-deck", "jan-furnace-filter", "unknown"]), now);
    expect(Object.keys(out).sort()).toEqual(["calendar", "doneEvents", "exportDate", "year"]);
    expect(out.year).toBe(2026);
    expect(out.exportDate).toBe("2026-05-01T10:00:00.000Z");
    expect(out.doneEvents).toEqual(["jan-furnace-filter", "may-deck"]);
    expect(out.calendar).toHaveLength(12);
    expect(out.calendar[4].name).toBe("May");
    expect(out.calendar.every((m) => m.tasks.length === 4)).toBe(true);
    const deck = out.calendar[4].tasks.find((t) => t.id === "may-deck")!;
    expect(deck).toMatchObject({ done: true, month: 5, category: "Exterior", date: "2026-05-03" });
    expect(out.calendar[4].tasks.filter((t) => t.done)).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });
});
