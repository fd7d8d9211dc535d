export type RecurrenceErrorCode =
  | 'invalid_rule'
  | 'frequency_too_fine'
  | 'too_many_occurrences'
  | 'dtstart_mismatch';

export class RecurrenceError extends Error {
  override readonly name = 'RecurrenceError';

  constructor(
    readonly code: RecurrenceErrorCode,
    message: string,
  ) {
    super(message);
  }
}
