import { Temporal } from 'temporal-polyfill';

export const workingWeek = [1, 2, 3, 4, 5] as const;

/** The date `ahead` matching days after `today` (days of the week: 1 = Monday … 7 = Sunday). */
export function dayAhead(today: Temporal.PlainDate, ahead: number, days: readonly number[] = workingWeek): Temporal.PlainDate {
  let date = today;
  for (let left = ahead; left > 0; ) {
    date = date.add({ days: 1 });
    if (days.includes(date.dayOfWeek)) left--;
  }
  return date;
}
