/** The CalDAV preconditions (RFC 4791 §5.3.2.1) a PUT of a calendar object can fail. */
export type CalendarObjectPrecondition = 'valid-calendar-data' | 'supported-calendar-component' | 'valid-calendar-object-resource' | 'max-attendees-per-instance';

/** A calendar object refused before anything is decided (contract §26): answered 403 with `CALDAV:{precondition}`. */
export class InvalidCalendarObject extends Error {
  constructor(
    readonly precondition: CalendarObjectPrecondition,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidCalendarObject';
  }
}

export const invalidData = (message: string) => new InvalidCalendarObject('valid-calendar-data', message);
export const invalidResource = (message: string) => new InvalidCalendarObject('valid-calendar-object-resource', message);
