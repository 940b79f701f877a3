import { describe, expect, it } from "vitest";
import {
  addDays,
  dayParts,
  daysInMonth,
  formatDateTime,
  formatDay,
  formatZonedDateTime,
  isIsoDate,
  isoDate,
  MONTH_NAMES,
  todayUtc,
  yearIn,
} from "./dates";

describe("dates", () => {
  it("knows the length of every month, leap years by the Gregorian rule", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
  });

  it("accepts only dates that exist, written YYYY-MM-DD", () => {
    for (const ok of ["2024-02-29", "2000-02-29", "1980-12-31", "2023-01-01"]) expect(isIsoDate(ok), ok).toBe(true);
    for (const bad of [
      "2023-02-29",
      "1900-02-29",
      "2023-02-30",
      "2023-04-31",
      "2023-13-01",
      "2023-00-10",
      "2023-01-00",
      "2023-1-01",
      "2023-01-01T00:00",
      " 2023-01-01",
      "01/02/2023",
      "",
    ])
      expect(isIsoDate(bad), bad).toBe(false);
  });

  it("writes a day as YYYY-MM-DD and reads today in UTC", () => {
    expect(isoDate(2024, 3, 7)).toBe("2024-03-07");
    expect(isoDate(987, 12, 31)).toBe("0987-12-31");
    expect(todayUtc(new Date("2024-06-15T23:30:00-05:00"))).toBe("2024-06-16");
    expect(MONTH_NAMES[0]).toBe("January");
    expect(MONTH_NAMES[11]).toBe("December");
  });

  it("writes instants for people in the zone asked for, and nothing for a missing or bad one", () => {
    expect(formatDateTime("2026-11-23T19:29:12.466Z", "UTC")).toBe("Nov 23, 2026, 7:29 PM");
    expect(formatDateTime("2026-11-23T19:29:12.466Z", "America/New_York")).toBe("Nov 23, 2026, 2:29 PM");
    expect(formatDay("2026-11-24T02:00:00.000Z", "UTC")).toBe("Nov 24, 2026");
    expect(formatDay("2026-11-24T02:00:00.000Z", "America/Los_Angeles")).toBe("Nov 23, 2026");
    // Staff read the association's zone, named (issue 48).
    expect(formatZonedDateTime("2026-11-23T19:29:12.466Z", "America/New_York")).toBe("Nov 23, 2026, 2:29 PM EST");
    expect(formatZonedDateTime("2026-07-01T16:05:00.000Z", "America/New_York")).toBe("Jul 1, 2026, 12:05 PM EDT");
    expect(formatZonedDateTime("2026-07-01T16:05:00.000Z", "America/Los_Angeles")).toBe("Jul 1, 2026, 9:05 AM PDT");
    expect(yearIn("America/New_York", new Date("2027-01-01T03:00:00Z"))).toBe(2026);
    expect(yearIn("UTC", new Date("2027-01-01T03:00:00Z"))).toBe(2027);
    for (const missing of [null, undefined, "", "not-a-date"]) {
      expect(formatZonedDateTime(missing, "UTC")).toBeNull();
      expect(formatDateTime(missing)).toBeNull();
      expect(formatDay(missing)).toBeNull();
    }
  });

  it("write and read only days of four-digit years, refusing the rest (issue 39: paid through 10798-10-31 read as the year 1079)", () => {
    expect(isoDate(9999, 12, 31)).toBe("9999-12-31");
    expect(isoDate(1, 1, 1)).toBe("0001-01-01");
    expect(isoDate(0, 1, 1)).toBe("0000-01-01");
    for (const year of [10_000, 10_798, -1, 1.5, Number.NaN]) expect(() => isoDate(year, 1, 1), String(year)).toThrow(RangeError);
    expect(dayParts("2026-10-31")).toEqual([2026, 10, 31]);
    for (const bad of ["10798-10-31", "+010000-01-01", "2026-1-01", "", "2026-10-31T00:00"])
      expect(() => dayParts(bad), bad).toThrow(RangeError);
  });

  it("add days across months, years and leap days, for years 0 to 9999 alike, and refuse a day past either end", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-10-31", 30)).toBe("2026-11-30");
    // Date.UTC reads the years 0 to 99 as 1900 to 1999: not here.
    expect(addDays("0001-01-01", 30)).toBe("0001-01-31");
    expect(addDays("0099-12-31", 1)).toBe("0100-01-01");
    expect(addDays("9999-12-30", 1)).toBe("9999-12-31");
    expect(() => addDays("9999-12-31", 1)).toThrow(RangeError);
    expect(() => addDays("0000-01-01", -1)).toThrow(RangeError);
    expect(() => addDays("10798-10-31", 30)).toThrow(RangeError);
  });
});
