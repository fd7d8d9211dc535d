export { expandRecurrence } from './expand-recurrence.js';
export type {
  ExpandRecurrenceInput,
  ExpandRecurrenceResult,
  Occurrence,
} from './expand-recurrence.js';
export { parseRecurrenceRule } from './parse-recurrence-rule.js';
export type { ByDay, Frequency, ParsedRule } from './parse-recurrence-rule.js';
export { RecurrenceError } from './recurrence-error.js';
export type { RecurrenceErrorCode } from './recurrence-error.js';
