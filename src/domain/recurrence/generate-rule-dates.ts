import { civilDate, daysInMonth, epochDay, isoWeekday } from './epoch-day.js';
import type { ByDay, ParsedRule } from './parse-recurrence-rule.js';

type Selectors = {
  byDay: readonly ByDay[];
  byMonthDay: readonly number[];
  byMonth: readonly number[];
};

// A span of epoch days, both ends included.
type Span = { first: number; last: number };

// Yields, in order, the local dates (epoch days) on which the rule has an occurrence, from
// firstDay (the DTSTART date) on. No period starting after lastDay is scanned, which is what
// bounds the work for rules that rarely or never match.
export function* generateRuleDates(
  rule: ParsedRule,
  firstDay: number,
  lastDay: number,
): Generator<number> {
  const selectors = withDefaults(rule, firstDay);
  for (const period of periods(rule, selectors, firstDay, lastDay)) {
    for (const day of applySetPos(period, rule.bySetPos)) {
      if (day >= firstDay) yield day;
    }
  }
}

// RFC 5545: when the rule does not say which days of its period it selects, DTSTART does.
function withDefaults(rule: ParsedRule, firstDay: number): Selectors {
  const { byDay, byMonthDay, byMonth } = rule;
  const { month, day } = civilDate(firstDay);
  const selectsDays = byDay.length > 0 || byMonthDay.length > 0;
  if (rule.freq === 'YEARLY' && !selectsDays) {
    return { byDay, byMonthDay: [day], byMonth: byMonth.length > 0 ? byMonth : [month] };
  }
  if (rule.freq === 'MONTHLY' && !selectsDays) return { byDay, byMonthDay: [day], byMonth };
  if (rule.freq === 'WEEKLY' && byDay.length === 0) {
    return { byDay: [{ weekday: isoWeekday(firstDay) }], byMonthDay, byMonth };
  }
  return { byDay, byMonthDay, byMonth };
}

// Each yielded array holds the sorted candidate days of one period, before BYSETPOS.
function periods(
  rule: ParsedRule,
  selectors: Selectors,
  firstDay: number,
  lastDay: number,
): Generator<number[]> {
  switch (rule.freq) {
    case 'YEARLY':
      return yearlyPeriods(selectors, rule.interval, firstDay, lastDay);
    case 'MONTHLY':
      return monthlyPeriods(selectors, rule.interval, firstDay, lastDay);
    case 'WEEKLY':
      return weeklyPeriods(selectors, rule.interval, rule.wkst, firstDay, lastDay);
    case 'DAILY':
      return dailyPeriods(selectors, rule.interval, firstDay, lastDay);
  }
}

function* yearlyPeriods(selectors: Selectors, interval: number, firstDay: number, lastDay: number) {
  for (let year = civilDate(firstDay).year; epochDay(year, 1, 1) <= lastDay; year += interval) {
    const wholeYear = { first: epochDay(year, 1, 1), last: epochDay(year, 12, 31) };
    if (selectors.byMonth.length > 0) {
      // RFC 5545: with BYMONTH, a BYDAY ordinal counts within each month, not the year.
      yield sortedUnique(
        selectors.byMonth.flatMap((month) => daysOfMonth(monthSpan(year, month), selectors)),
      );
    } else if (selectors.byMonthDay.length > 0) {
      yield sortedUnique(
        Array.from({ length: 12 }, (_, index) => monthSpan(year, index + 1)).flatMap((month) =>
          matchingMonthDays(month, selectors, wholeYear),
        ),
      );
    } else {
      yield expandByDay(selectors.byDay, wholeYear);
    }
  }
}

function* monthlyPeriods(
  selectors: Selectors,
  interval: number,
  firstDay: number,
  lastDay: number,
) {
  const start = civilDate(firstDay);
  for (let index = start.year * 12 + start.month - 1; ; index += interval) {
    const month = monthSpanAt(index);
    if (month.first > lastDay) return;
    yield isSelectedMonth(month.first, selectors) ? daysOfMonth(month, selectors) : [];
  }
}

function* weeklyPeriods(
  selectors: Selectors,
  interval: number,
  weekStart: number,
  firstDay: number,
  lastDay: number,
) {
  const firstWeek = firstDay - ((isoWeekday(firstDay) - weekStart + 7) % 7);
  for (let first = firstWeek; first <= lastDay; first += 7 * interval) {
    yield expandByDay(selectors.byDay, { first, last: first + 6 }).filter((day) =>
      isSelectedMonth(day, selectors),
    );
  }
}

// A daily period is a single day; the scan goes month by month so that months excluded by
// BYMONTH, and days excluded by BYMONTHDAY, cost nothing.
function* dailyPeriods(selectors: Selectors, interval: number, firstDay: number, lastDay: number) {
  const start = civilDate(firstDay);
  for (let index = start.year * 12 + start.month - 1; ; index += 1) {
    const month = monthSpanAt(index);
    if (month.first > lastDay) return;
    if (!isSelectedMonth(month.first, selectors)) continue;
    const candidates =
      selectors.byMonthDay.length > 0
        ? monthDays(month, selectors.byMonthDay).filter(
            (day) => (day - firstDay) % interval === 0,
          )
        : gridDays(month, firstDay, interval);
    for (const day of candidates) {
      if (selectors.byDay.length === 0 || matchesByDay(day, selectors.byDay, month)) yield [day];
    }
  }
}

function daysOfMonth(month: Span, selectors: Selectors): number[] {
  return selectors.byMonthDay.length > 0
    ? matchingMonthDays(month, selectors, month)
    : expandByDay(selectors.byDay, month);
}

// BYMONTHDAY expands, then BYDAY only limits; ordinals count within ordinalScope.
function matchingMonthDays(month: Span, selectors: Selectors, ordinalScope: Span): number[] {
  return monthDays(month, selectors.byMonthDay).filter(
    (day) => selectors.byDay.length === 0 || matchesByDay(day, selectors.byDay, ordinalScope),
  );
}

function monthDays(month: Span, byMonthDay: readonly number[]): number[] {
  return sortedUnique(
    byMonthDay
      .map((day) => (day > 0 ? month.first + day - 1 : month.last + day + 1))
      .filter((day) => day >= month.first && day <= month.last),
  );
}

// The days of month that lie on the INTERVAL grid starting at firstDay.
function gridDays(month: Span, firstDay: number, interval: number): number[] {
  const from = Math.max(month.first, firstDay);
  const days: number[] = [];
  for (
    let day = firstDay + Math.ceil((from - firstDay) / interval) * interval;
    day <= month.last;
    day += interval
  ) {
    days.push(day);
  }
  return days;
}

function expandByDay(byDay: readonly ByDay[], span: Span): number[] {
  return sortedUnique(
    byDay.flatMap(({ weekday, ordinal }) => {
      const firstMatch = span.first + ((weekday - isoWeekday(span.first) + 7) % 7);
      const lastMatch = span.last - ((isoWeekday(span.last) - weekday + 7) % 7);
      if (ordinal === undefined) {
        return Array.from(
          { length: Math.floor((lastMatch - firstMatch) / 7) + 1 },
          (_, index) => firstMatch + 7 * index,
        );
      }
      const day = ordinal > 0 ? firstMatch + 7 * (ordinal - 1) : lastMatch + 7 * (ordinal + 1);
      return day >= span.first && day <= span.last ? [day] : [];
    }),
  );
}

function matchesByDay(day: number, byDay: readonly ByDay[], ordinalScope: Span): boolean {
  return byDay.some(
    ({ weekday, ordinal }) =>
      isoWeekday(day) === weekday &&
      (ordinal === undefined ||
        (ordinal > 0
          ? Math.floor((day - ordinalScope.first) / 7) + 1 === ordinal
          : -(Math.floor((ordinalScope.last - day) / 7) + 1) === ordinal)),
  );
}

function applySetPos(days: number[], bySetPos: readonly number[]): number[] {
  if (bySetPos.length === 0) return days;
  return sortedUnique(
    bySetPos.flatMap((position) => {
      const day = days[position > 0 ? position - 1 : days.length + position];
      return day === undefined ? [] : [day];
    }),
  );
}

function isSelectedMonth(day: number, selectors: Selectors): boolean {
  return selectors.byMonth.length === 0 || selectors.byMonth.includes(civilDate(day).month);
}

function monthSpanAt(monthIndex: number): Span {
  const year = Math.floor(monthIndex / 12);
  return monthSpan(year, monthIndex - year * 12 + 1);
}

function monthSpan(year: number, month: number): Span {
  const first = epochDay(year, month, 1);
  return { first, last: first + daysInMonth(year, month) - 1 };
}

function sortedUnique(days: number[]): number[] {
  return [...new Set(days)].sort((a, b) => a - b);
}
