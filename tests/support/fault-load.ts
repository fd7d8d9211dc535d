import type { Answer } from './call-service.js';

const minute = 60_000;
const quarter = 15 * minute;
const day = 24 * 60 * minute;

/** Every answer a fault run's clients got, counted by what they asked and its status; the 5xx other than 503 kept. */
export function answerTally() {
  const outcomes = new Map<string, number>();
  const fiveHundreds: { what: string; body: unknown }[] = [];
  return {
    outcomes,
    fiveHundreds,
    record(what: string, res: Answer) {
      outcomes.set(`${what} ${res.status}`, (outcomes.get(`${what} ${res.status}`) ?? 0) + 1);
      if (res.status >= 500 && res.status !== 503) fiveHundreds.push({ what, body: res.body });
    },
    count: (what: string, status: number) => outcomes.get(`${what} ${status}`) ?? 0,
  };
}

/** An answer that leaves the write's fate unknown to the client: the connection lost, or a 5xx. */
export const lostAnswer = (res: Answer) => res.status === 0 || res.status >= 500;

/**
 * Slots of a fault run's load: 15 to 90 minutes from a quarter-hour of the current window, three
 * hours of a day (two days ahead, from 08:00 UTC) that moves on to the next day every 2 s, up to
 * `windows` days: the clients contend on few hours at a time, and a later window is fresh.
 */
export function movingSlots(windows: number) {
  const startedAt = Date.now();
  const firstDay = Math.ceil((startedAt + 2 * day) / day) * day + 8 * 60 * minute;
  const next = () => {
    const window = Math.min(windows - 1, Math.floor((Date.now() - startedAt) / 2_000));
    const start = firstDay + window * day + Math.floor(Math.random() * 10) * quarter;
    return { start, end: start + (1 + Math.floor(Math.random() * 6)) * quarter };
  };
  return { startedAt, firstDay, next };
}
