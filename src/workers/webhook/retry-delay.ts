const second = 1_000;
const minute = 60 * second;
const hour = 60 * minute;

/** Contract §8: the pauses before the 1st … 10th retry; after the last one the delivery is dead-lettered. */
export const contractRetryDelaysMs: readonly number[] = [5 * second, 30 * second, 2 * minute, 10 * minute, 30 * minute, hour, 3 * hour, 6 * hour, 12 * hour, 24 * hour];

/**
 * The pause after `failedAttempts` failures, spread by ±jitterRatio so that receivers coming back
 * are not hit by every queued delivery at once; null when the schedule is spent.
 */
export function retryDelay(failedAttempts: number, delaysMs: readonly number[], jitterRatio: number, random: () => number = Math.random): number | null {
  const base = delaysMs[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + jitterRatio * (2 * random() - 1)));
}
