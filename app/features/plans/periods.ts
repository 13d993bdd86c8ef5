/**
 * A care plan's periods, anchored to the day it started (issue 38, ADR 0531).
 *
 * Period n starts n months (or n years) after the start date, with the day clamped to the month's last
 * day: a plan started on 31 January renews on 28 (or 29) February, then on 31 March, never on the 28th
 * for good. The dates never depend on when the scheduler last ran, so a missed or late run cannot move
 * the billing day (the defect of tools that compute the next date from the last send).
 *
 * Dates are calendar days (`YYYY-MM-DD`, UTC): no time of day and no time zone, so the arithmetic is the
 * same on every server and in every test.
 */

import type { PlanCycle } from "./plans";

export type { PlanCycle };

/** A calendar day, `YYYY-MM-DD`. */
export type CalendarDay = string;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

interface Ymd {
  year: number;
  month: number; // 1-12
  day: number;
}

function parseDay(value: CalendarDay): Ymd {
  const match = DAY.exec(value);
  if (!match) throw new RangeError(`Not a calendar day: ${value}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`Not a calendar day: ${value}`);
  }
  return { year, month, day };
}

function formatDay({ year, month, day }: Ymd): CalendarDay {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True when `value` is a real calendar day in `YYYY-MM-DD` form. */
export function isCalendarDay(value: string): boolean {
  try {
    parseDay(value);
    return true;
  } catch {
    return false;
  }
}

/** The UTC calendar day of an instant. */
export function calendarDayOf(instant: Date): CalendarDay {
  return instant.toISOString().slice(0, 10);
}

/** `months` calendar months after `start`, the day clamped to the target month's length. */
export function addMonthsClamped(start: CalendarDay, months: number): CalendarDay {
  if (!Number.isInteger(months)) throw new RangeError("months must be a whole number");
  const { year, month, day } = parseDay(start);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return formatDay({
    year: targetYear,
    month: targetMonth,
    day: Math.min(day, daysInMonth(targetYear, targetMonth)),
  });
}

export function addDays(start: CalendarDay, days: number): CalendarDay {
  const { year, month, day } = parseDay(start);
  return calendarDayOf(new Date(Date.UTC(year, month - 1, day) + days * MS_PER_DAY));
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: CalendarDay, b: CalendarDay): number {
  const from = parseDay(a);
  const to = parseDay(b);
  return Math.round(
    (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / MS_PER_DAY,
  );
}

const MONTHS_PER_CYCLE: Record<PlanCycle, number> = { monthly: 1, yearly: 12 };

/** The first day of period `index` (0 = the period paid at subscription). */
export function periodStart(anchor: CalendarDay, cycle: PlanCycle, index: number): CalendarDay {
  if (!Number.isInteger(index) || index < 0) throw new RangeError("period index must be 0 or more");
  return addMonthsClamped(anchor, index * MONTHS_PER_CYCLE[cycle]);
}

export interface PlanPeriod {
  index: number;
  /** Its first day, which is also its renewal invoice's due date. */
  start: CalendarDay;
  /** The first day of the next period (exclusive end). */
  end: CalendarDay;
}

export function planPeriod(anchor: CalendarDay, cycle: PlanCycle, index: number): PlanPeriod {
  return { index, start: periodStart(anchor, cycle, index), end: periodStart(anchor, cycle, index + 1) };
}

/** The period that contains `day` (the first one for a day before the anchor). */
export function periodContaining(anchor: CalendarDay, cycle: PlanCycle, day: CalendarDay): PlanPeriod {
  if (day < anchor) return planPeriod(anchor, cycle, 0);
  const from = parseDay(anchor);
  const to = parseDay(day);
  const months = (to.year - from.year) * 12 + (to.month - from.month);
  // The month count is at most one period past the answer: step back while the start is after `day`.
  let index = Math.floor(months / MONTHS_PER_CYCLE[cycle]);
  while (index > 0 && periodStart(anchor, cycle, index) > day) index--;
  return planPeriod(anchor, cycle, index);
}

/**
 * The day the renewal invoice for period `index` is issued: `noticeDays` before the period starts (the
 * previous period ends), never before the previous period itself began.
 */
export function renewalIssueDay(
  anchor: CalendarDay,
  cycle: PlanCycle,
  index: number,
  noticeDays: number,
): CalendarDay {
  if (index < 1) throw new RangeError("the first period is paid at subscription, not renewed");
  const due = periodStart(anchor, cycle, index);
  const previousStart = periodStart(anchor, cycle, index - 1);
  const issue = addDays(due, -Math.max(0, noticeDays));
  // Calendar days compare as strings (Math.max would not).
  if (issue < previousStart) return previousStart;
  return issue;
}

/**
 * Whether a card that expires at the end of `expMonth`/`expYear` has expired by `day` (a card is valid
 * through the last day of its expiry month).
 */
export function cardExpiredBy(expMonth: number, expYear: number, day: CalendarDay): boolean {
  const { year, month } = parseDay(day);
  return year > expYear || (year === expYear && month > expMonth);
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "28 February 2027": a calendar day as emails and pages print it (no time zone to get wrong). */
export function formatCalendarDay(day: CalendarDay): string {
  const { year, month, day: d } = parseDay(day);
  return `${d} ${MONTH_NAMES[month - 1]} ${year}`;
}
