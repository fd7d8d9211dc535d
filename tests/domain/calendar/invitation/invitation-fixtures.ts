import { readFileSync } from 'node:fs';

/** Bodies of PUTs as calendar clients send them, kept in fixtures/ with their CRLF line ends. */
export const clientFixtures = ['thunderbird.ics', 'apple.ics', 'outlook.ics', 'davx5-weekly.ics', 'python-caldav.ics', 'all-day.ics', 'evolution-floating.ics'] as const;

export const fixture = (name: (typeof clientFixtures)[number]): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** A VCALENDAR of the given components' lines. */
export const calendarText = (...components: string[][]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...components.flat(), 'END:VCALENDAR', ''].join('\r\n');

export const vevent = (...lines: string[]): string[] => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];

/** One event with a UID and DTSTAMP and the lines given. */
export const eventText = (...lines: string[]): string => calendarText(vevent('UID:event-1', 'DTSTAMP:20270101T000000Z', ...lines));

/** The room of the fixtures. */
export const roomAddress = 'mailto:7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77@resources.invalid';

/** A value with Temporal objects as the strings they print, for deep comparison (chai sees no fields in them). */
export const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
