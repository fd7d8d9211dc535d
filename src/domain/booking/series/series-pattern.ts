import { Temporal } from 'temporal-polyfill';
import { invalidRequest, policyViolation, type DomainError } from '../../domain-error.js';
import { expandRecurrence, parseRecurrenceRule, RecurrenceError, type Occurrence } from '../../recurrence/index.js';
import type { Resource } from '../../resource/resource.js';
import { canonicalTimeZone } from '../../time/time-zone.js';
import { instantOf } from '../booking-time.js';
import { buffersOf, type Buffers } from '../occupied-range.js';

/** What a series repeats: its first occurrence (DTSTART and duration), the rule and the zone of its wall clock. */
export type SeriesPattern = {
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  recurrenceRule: string;
  timeZone: string;
  exdates?: readonly Temporal.Instant[];
};

/** RRULE years end at 9999; past it only COUNT, UNTIL and the 500 limit end an expansion. */
const endOfRuleTime = Temporal.Instant.from('9999-12-31T23:59:59Z');

function ruleError(error: RecurrenceError, timeZone = 'UTC'): DomainError {
  const explained: Record<RecurrenceError['code'], string> = {
    invalid_rule: `recurrenceRule is not a valid RRULE: ${error.message}`,
    frequency_too_fine: `recurrenceRule is refused: ${error.message}; a series repeats at most daily`,
    too_many_occurrences: `recurrenceRule is refused: ${error.message}; shorten COUNT or UNTIL`,
    dtstart_mismatch: `recurrenceRule does not fit startTime: ${error.message} (wall-clock time of ${timeZone})`,
  };
  const refusal = invalidRequest(explained[error.code], '/body/recurrenceRule');
  if (error.code === 'too_many_occurrences') tooLong.add(refusal);
  return refusal;
}

/** The refusals of a series longer than §6 allows, told apart from other bad rules by isSeriesTooLong. */
const tooLong = new WeakSet<DomainError>();

/** Whether a refusal says the series would hold more occurrences than §6 allows (contract §26 names it maxOccurrences). */
export const isSeriesTooLong = (error: unknown): boolean => error instanceof Object && tooLong.has(error as DomainError);

/** Checks the rule's text alone (400), before anything is loaded. */
export function assertRecurrenceRule(rule: string): void {
  try {
    parseRecurrenceRule(rule);
  } catch (error) {
    if (error instanceof RecurrenceError) throw ruleError(error);
    throw error;
  }
}

/** The canonical IANA id of a zone a client named (400 for an unknown one). */
export function clientTimeZone(name: string): string {
  const zone = canonicalTimeZone(name);
  if (!zone) throw invalidRequest(`unknown time zone "${name}"`, '/body/timeZone');
  return zone;
}

/** The zone a series on `resource` expands in when the client names none. */
export const defaultSeriesTimeZone = (resource: Resource): string => resource.availability?.timeZone ?? 'UTC';

/** The latest start the resource accepts, as bookingPolicyRefusal counts it. */
const bookingHorizon = (resource: Resource, now: Temporal.Instant): Temporal.Instant =>
  now.add({ hours: resource.bookingPolicy.maxAdvanceDays * 24 });

/** Occurrences a series may hold from now on. */
const maxSeriesOccurrences = 500;

// A series edited after its start is expanded from its first occurrence again: the occurrences
// before now are walked but not booked, at most one a day.
function expand(pattern: SeriesPattern, horizon: Temporal.Instant, now: Temporal.Instant) {
  const elapsedDays = Math.max(0, Math.ceil((now.epochMilliseconds - pattern.startTime.epochMilliseconds) / 86_400_000));
  try {
    return expandRecurrence({
      rule: pattern.recurrenceRule,
      timeZone: pattern.timeZone,
      firstStart: pattern.startTime,
      durationMs: pattern.endTime.epochMilliseconds - pattern.startTime.epochMilliseconds,
      horizon,
      exdates: pattern.exdates ? [...pattern.exdates] : [],
      maxOccurrences: maxSeriesOccurrences + elapsedDays,
    });
  } catch (error) {
    if (error instanceof RecurrenceError) throw ruleError(error, pattern.timeZone);
    throw error;
  }
}

/**
 * Every occurrence of the pattern, earlier ones of a running series included: a rule without
 * COUNT or UNTIL stops at the resource's horizon, one with them is listed to its end (see
 * assertWithinHorizon). 400 for a bad rule, for more than 500 occurrences from now on, and for
 * occurrences overlapping one another.
 */
export function seriesOccurrences(pattern: SeriesPattern, resource: Resource, now: Temporal.Instant): Occurrence[] {
  let { occurrences, exceedsHorizon } = expand(pattern, bookingHorizon(resource, now), now);
  if (exceedsHorizon) ({ occurrences } = expand(pattern, endOfRuleTime, now));
  if (occurrences.filter((o) => Temporal.Instant.compare(o.start, now) >= 0).length > maxSeriesOccurrences) {
    const refusal = invalidRequest(
      `recurrenceRule is refused: the series would have more than ${maxSeriesOccurrences} occurrences from now on; shorten COUNT or UNTIL`,
      '/body/recurrenceRule',
    );
    tooLong.add(refusal);
    throw refusal;
  }
  assertNoOverlapWithin(occurrences, buffersOf(resource));
  return occurrences;
}

/** A series is booked whole or not at all: an occurrence past maxAdvanceDays refuses it (422). */
/** Whether every occurrence starts within the resource's maxAdvanceDays. */
export function isWithinHorizon(occurrences: readonly Occurrence[], resource: Resource, now: Temporal.Instant): boolean {
  const horizon = bookingHorizon(resource, now);
  return !occurrences.some((o) => Temporal.Instant.compare(o.start, horizon) > 0);
}

export function assertWithinHorizon(occurrences: readonly Occurrence[], resource: Resource, now: Temporal.Instant): void {
  if (!isWithinHorizon(occurrences, resource, now)) {
    const horizon = bookingHorizon(resource, now);
    const days = resource.bookingPolicy.maxAdvanceDays;
    throw policyViolation('maxAdvanceDays', `the series has occurrences starting more than ${days} days ahead (after ${horizon.toString()}); shorten COUNT or UNTIL`);
  }
}

/**
 * Occurrences in time order never share time, nor occupied time with the resource's buffers; a
 * duration (plus buffers) longer than the rule's gap would.
 */
function assertNoOverlapWithin(occurrences: readonly Occurrence[], buffers: Buffers): void {
  occurrences.slice(1).forEach((next, i) => {
    const previous = occurrences[i]!;
    if (Temporal.Instant.compare(previous.end, next.start) > 0) {
      throw invalidRequest(
        `occurrences of the series overlap each other (${previous.start.toString()} ends after ${next.start.toString()} starts); shorten the booking or space the rule out`,
        '/body/endTime',
      );
    }
    const gapMinutes = (next.start.epochMilliseconds - previous.end.epochMilliseconds) / 60_000;
    if (gapMinutes < buffers.bufferBeforeMinutes + buffers.bufferAfterMinutes) {
      throw invalidRequest(
        `occurrences of the series overlap each other with the resource's buffers (${buffers.bufferBeforeMinutes} minutes before, ${buffers.bufferAfterMinutes} after): ${previous.start.toString()} and ${next.start.toString()}; shorten the booking or space the rule out`,
        '/body/endTime',
      );
    }
  });
}

/** The pattern a stored series parent describes. */
export function parentPattern(parent: { startTime: string; endTime: string; recurrenceRule: string | null; recurrenceTimeZone: string | null }): SeriesPattern {
  return {
    startTime: instantOf(parent.startTime),
    endTime: instantOf(parent.endTime),
    recurrenceRule: parent.recurrenceRule ?? '',
    timeZone: parent.recurrenceTimeZone ?? 'UTC',
  };
}

/** The local calendar date an occurrence starting at `start` is known by in its series. */
export const seriesDate = (start: Temporal.Instant, timeZone: string): string => start.toZonedDateTimeISO(timeZone).toPlainDate().toString();

/**
 * The local dates of the pattern's occurrences after `from`: all of them when the rule has COUNT
 * or UNTIL, else those up to `until`.
 */
export function patternDates(pattern: SeriesPattern, from: Temporal.Instant, until: Temporal.Instant): Set<string> {
  const rule = parseRecurrenceRule(pattern.recurrenceRule);
  const ends = rule.count !== undefined || rule.until !== undefined;
  const { occurrences } = expand(pattern, ends ? endOfRuleTime : until, from);
  return new Set(occurrences.filter((o) => Temporal.Instant.compare(o.start, from) > 0).map((o) => seriesDate(o.start, pattern.timeZone)));
}
