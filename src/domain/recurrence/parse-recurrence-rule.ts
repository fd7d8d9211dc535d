import { Temporal } from 'temporal-polyfill';
import { RecurrenceError } from './recurrence-error.js';

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

// weekday uses ISO numbering (1 = Monday … 7 = Sunday), as Temporal's dayOfWeek.
export type ByDay = { weekday: number; ordinal?: number };

export type ParsedRule = {
  freq: Frequency;
  interval: number;
  count?: number;
  until?: Temporal.Instant;
  byDay: readonly ByDay[];
  byMonthDay: readonly number[];
  byMonth: readonly number[];
  bySetPos: readonly number[];
  wkst: number;
};

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const FREQUENCIES: readonly string[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const SUB_DAILY_FREQUENCIES = ['HOURLY', 'MINUTELY', 'SECONDLY'];
const KNOWN_PARTS = [
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYDAY',
  'BYMONTHDAY',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
];
const UNSUPPORTED_PARTS = new Map([
  ['BYHOUR', 'every occurrence keeps the time of day of the first start'],
  ['BYMINUTE', 'every occurrence keeps the time of day of the first start'],
  ['BYSECOND', 'every occurrence keeps the time of day of the first start'],
  ['BYWEEKNO', 'use BYMONTH, BYMONTHDAY or BYDAY instead'],
  ['BYYEARDAY', 'use BYMONTH, BYMONTHDAY or BYDAY instead'],
]);

export function parseRecurrenceRule(rule: string): ParsedRule {
  const parts = readParts(rule);
  const freq = parts.get('FREQ');
  if (freq === undefined) throw invalid('FREQ is required');
  if (SUB_DAILY_FREQUENCIES.includes(freq)) {
    throw new RecurrenceError('frequency_too_fine', `FREQ=${freq} is finer than DAILY`);
  }
  if (!isFrequency(freq)) throw invalid(`unknown FREQ "${freq}"`);

  const count = optional(parts.get('COUNT'), (value) => parseCount('COUNT', value));
  const until = optional(parts.get('UNTIL'), parseUntil);
  if (count !== undefined && until !== undefined) {
    throw invalid('COUNT and UNTIL must not both be given');
  }
  const parsed: ParsedRule = {
    freq,
    interval: optional(parts.get('INTERVAL'), (value) => parseCount('INTERVAL', value)) ?? 1,
    ...(count === undefined ? {} : { count }),
    ...(until === undefined ? {} : { until }),
    byDay: optional(parts.get('BYDAY'), parseByDay) ?? [],
    byMonthDay:
      optional(parts.get('BYMONTHDAY'), (value) => parseList('BYMONTHDAY', value, 31)) ?? [],
    byMonth: optional(parts.get('BYMONTH'), parseByMonth) ?? [],
    bySetPos: optional(parts.get('BYSETPOS'), (value) => parseList('BYSETPOS', value, 366)) ?? [],
    wkst: optional(parts.get('WKST'), (value) => parseWeekday('WKST', value)) ?? 1,
  };
  checkCombination(parsed);
  return parsed;
}

function readParts(rule: string): Map<string, string> {
  const body = rule.trim().toUpperCase().replace(/^RRULE:/, '');
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const separator = part.indexOf('=');
    const name = part.slice(0, separator);
    const value = part.slice(separator + 1);
    if (separator <= 0 || value === '') throw invalid(`malformed rule part "${part}"`);
    const unsupported = UNSUPPORTED_PARTS.get(name);
    if (unsupported !== undefined) throw invalid(`${name} is not supported: ${unsupported}`);
    if (!KNOWN_PARTS.includes(name)) throw invalid(`unknown rule part ${name}`);
    if (parts.has(name)) throw invalid(`${name} is given more than once`);
    parts.set(name, value);
  }
  return parts;
}

function checkCombination(rule: ParsedRule): void {
  const hasOrdinal = rule.byDay.some((entry) => entry.ordinal !== undefined);
  if (hasOrdinal && rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY') {
    throw invalid('BYDAY ordinals such as 1MO are only allowed with FREQ=MONTHLY or YEARLY');
  }
  if (rule.freq === 'WEEKLY' && rule.byMonthDay.length > 0) {
    throw invalid('BYMONTHDAY is not allowed with FREQ=WEEKLY');
  }
  const hasOtherSelector =
    rule.byDay.length > 0 || rule.byMonthDay.length > 0 || rule.byMonth.length > 0;
  if (rule.bySetPos.length > 0 && !hasOtherSelector) {
    throw invalid('BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH');
  }
}

function isFrequency(value: string): value is Frequency {
  return FREQUENCIES.includes(value);
}

function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function parseCount(name: string, value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || !Number.isSafeInteger(number)) {
    throw invalid(`${name} must be a positive integer, got "${value}"`);
  }
  return number;
}

// UTC form only: RFC 5545 requires UNTIL in UTC when DTSTART carries a time zone.
function parseUntil(value: string): Temporal.Instant {
  if (!/^\d{8}T\d{6}Z$/.test(value)) {
    throw invalid(`UNTIL must be a UTC date-time such as 20261231T235959Z, got "${value}"`);
  }
  const field = (start: number, end: number) => Number(value.slice(start, end));
  try {
    return Temporal.PlainDateTime.from(
      {
        year: field(0, 4),
        month: field(4, 6),
        day: field(6, 8),
        hour: field(9, 11),
        minute: field(11, 13),
        second: field(13, 15),
      },
      { overflow: 'reject' },
    )
      .toZonedDateTime('UTC')
      .toInstant();
  } catch {
    throw invalid(`UNTIL is not a valid date-time: "${value}"`);
  }
}

function parseByDay(value: string): ByDay[] {
  return value.split(',').map((item) => {
    const ordinalText = item.slice(0, -2);
    const weekday = parseWeekday('BYDAY', item.slice(-2));
    if (ordinalText === '') return { weekday };
    const ordinal = Number(ordinalText);
    if (!/^[+-]?\d{1,2}$/.test(ordinalText) || ordinal === 0 || Math.abs(ordinal) > 53) {
      throw invalid(`BYDAY ordinal must be 1 to 53 or -53 to -1, got "${item}"`);
    }
    return { weekday, ordinal };
  });
}

function parseWeekday(name: string, value: string): number {
  const index = WEEKDAYS.indexOf(value);
  if (index < 0) throw invalid(`${name} has an unknown weekday "${value}"`);
  return index + 1;
}

function parseByMonth(value: string): number[] {
  return value.split(',').map((item) => {
    const month = Number(item);
    if (!/^\d{1,2}$/.test(item) || month < 1 || month > 12) {
      throw invalid(`BYMONTH must list months 1 to 12, got "${item}"`);
    }
    return month;
  });
}

function parseList(name: string, value: string, limit: number): number[] {
  return value.split(',').map((item) => {
    const number = Number(item);
    if (!/^[+-]?\d{1,3}$/.test(item) || number === 0 || Math.abs(number) > limit) {
      throw invalid(`${name} must list 1 to ${limit} or -${limit} to -1, got "${item}"`);
    }
    return number;
  });
}

function invalid(message: string): RecurrenceError {
  return new RecurrenceError('invalid_rule', message);
}
