/** A token bucket of one limited client, e.g. `sub:<sub>` (contract §18). */
export type RateLimitBucketsTable = {
  key: string;
  /** Tokens left as of updated_at (fractional: the bucket refills continuously). */
  tokens: number;
  updated_at: Date;
  /** How many tokens the last statement took (0: refused). */
  taken: number;
};
