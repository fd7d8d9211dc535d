import { Temporal } from 'temporal-polyfill';
import { civilDate, epochDay } from './epoch-day.js';
import { generateRuleDates } from './generate-rule-dates.js';
import { parseRecurrenceRule, type ParsedRule } from './parse-recurrence-rule.js';
import { RecurrenceError } from './recurrence-error.js';

export type ExpandRecurrenceInput = {
  rule: string;
  timeZone: string;
  firstStart: Temporal.Instant;
  durationMs: number;
  horizon: Temporal.Instant;
  exdates?: Temporal.Instant[];
  maxOccurrences?: number;
};

export type Occurrence = { start: Temporal.Instant; end: Temporal.Instant };

export type ExpandRecurrenceResult = {
  occurrences: Occurrence[];
  exceedsHorizon: boolean;
};

const DEFAULT_MAX_OCCURRENCES = 500;

// RFC 5545 years have four digits and python-dateutil and rrule.js stop there too; this is
// also what bounds a COUNT rule whose occurrences after the horizon are sparse.
const LAST_SUPPORTED_DAY = epochDay(9999, 12, 31);

// Dates are scanned a little past the local date of the instant that ends the scan, so that
// an offset change at that boundary cannot hide an occurrence; the exact cut is on instants.
const SCAN_MARGIN_DAYS = 2;

export function expandRecurrence(input: ExpandRecurrenceInput): ExpandRecurrenceResult {
  const { firstStart, horizon, timeZone } = input;
  const maxOccurrences = input.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
  const rule = parseRecurrenceRule(input.rule);
  if (rule.count !== undefined && rule.count > maxOccurrences) {
    throw tooManyOccurrences(maxOccurrences);
  }
  const localStart = firstStart.toZonedDateTimeISO(timeZone);
  const firstDay = epochDay(localStart.year, localStart.month, localStart.day);
  const time = localStart.toPlainTime();
  checkStartMatches(rule, firstStart, firstDay);

  const bounded = rule.count !== undefined || rule.until !== undefined;
  const scanEnd =
    rule.count === undefined
      ? Math.min(LAST_SUPPORTED_DAY, localDay(rule.until ?? horizon, timeZone) + SCAN_MARGIN_DAYS)
      : LAST_SUPPORTED_DAY;
  const excluded = new Set((input.exdates ?? []).map((exdate) => exdate.epochNanoseconds));
  const occurrences: Occurrence[] = [];
  let produced = 0;
  let exceedsHorizon = false;

  for (const day of generateRuleDates(rule, firstDay, scanEnd)) {
    // firstStart is kept as given: re-resolving its wall-clock time would move a DTSTART in
    // the repeated hour of a fall-back transition to the earlier of the two instants.
    const start = day === firstDay ? firstStart : toInstant(day, time, timeZone);
    if (rule.until !== undefined && isAfter(start, rule.until)) break;
    const afterHorizon = isAfter(start, horizon);
    if (afterHorizon && !bounded) break;
    produced += 1;
    // An UNTIL rule is counted to its end, past the horizon, so that its size is what is limited.
    if (produced > maxOccurrences) throw tooManyOccurrences(maxOccurrences);
    if (!excluded.has(start.epochNanoseconds)) {
      if (afterHorizon) {
        exceedsHorizon = true;
        if (rule.count !== undefined) break;
      } else {
        occurrences.push({ start, end: start.add({ milliseconds: input.durationMs }) });
      }
    }
    if (produced === rule.count) break;
  }
  return { occurrences, exceedsHorizon };
}

function checkStartMatches(rule: ParsedRule, firstStart: Temporal.Instant, firstDay: number) {
  if (rule.until !== undefined && isAfter(firstStart, rule.until)) {
    throw new RecurrenceError('dtstart_mismatch', 'UNTIL is before the first start');
  }
  // The first period of the rule contains firstDay, so scanning that period alone decides.
  const first = generateRuleDates(rule, firstDay, firstDay).next();
  if (first.done === true || first.value !== firstDay) {
    throw new RecurrenceError(
      'dtstart_mismatch',
      'the first start is not itself an occurrence of the rule',
    );
  }
}

function toInstant(day: number, time: Temporal.PlainTime, timeZone: string): Temporal.Instant {
  const { year, month, day: dayOfMonth } = civilDate(day);
  return new Temporal.PlainDate(year, month, dayOfMonth)
    .toPlainDateTime(time)
    .toZonedDateTime(timeZone, { disambiguation: 'compatible' })
    .toInstant();
}

function localDay(instant: Temporal.Instant, timeZone: string): number {
  const local = instant.toZonedDateTimeISO(timeZone);
  return epochDay(local.year, local.month, local.day);
}

function isAfter(a: Temporal.Instant, b: Temporal.Instant): boolean {
  return Temporal.Instant.compare(a, b) > 0;
}

function tooManyOccurrences(maxOccurrences: number): RecurrenceError {
  return new RecurrenceError(
    'too_many_occurrences',
    `the rule would produce more than ${maxOccurrences} occurrences`,
  );
}
