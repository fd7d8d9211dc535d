/** A limit of requests per 60 s and the name its headers carry (contract §18). */
export type RateLimitPolicy = { name: string; perMinute: number };

export const rateLimitWindowSeconds = 60;

/** The headers of an answer, from the bucket after its request (tokens left, whether it took one). */
export type RateLimitHeaders = { policy: string; limit: string; retryAfterSeconds: number | null };

/**
 * `RateLimit-Policy: "<name>";q=<perMinute>;w=60` and `RateLimit: "<name>";r=<remaining>;t=<s>`,
 * where t is the number of seconds until a request is free again (0 while one is). A refused
 * request also gets Retry-After = t (at least 1).
 */
export function rateLimitHeaders(policy: RateLimitPolicy, bucket: { tokens: number; allowed: boolean }): RateLimitHeaders {
  const remaining = Math.max(0, Math.floor(bucket.tokens));
  const secondsPerToken = rateLimitWindowSeconds / policy.perMinute;
  const untilFree = bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) * secondsPerToken);
  return {
    policy: `"${policy.name}";q=${policy.perMinute};w=${rateLimitWindowSeconds}`,
    limit: `"${policy.name}";r=${remaining};t=${untilFree}`,
    retryAfterSeconds: bucket.allowed ? null : Math.max(1, untilFree),
  };
}

/**
 * Who a bucket counts: a token subject, a calendar feed token on its own (its requests do not
 * count against its creator's subject), or a calendar password's username (contract §25, likewise).
 * Each kind has its policy name and its own key space.
 */
export type RateLimitedClient = { kind: 'sub'; sub: string } | { kind: 'feed-token'; id: string } | { kind: 'calendar-password'; username: string };

export function bucketKeyOf(client: RateLimitedClient): string {
  switch (client.kind) {
    case 'sub':
      return `sub:${client.sub}`;
    case 'feed-token':
      return `feed-token:${client.id}`;
    case 'calendar-password':
      return `calendar-password:${client.username}`;
  }
}

const policyNames: Record<RateLimitedClient['kind'], string> = { sub: 'per-sub', 'feed-token': 'per-feed-token', 'calendar-password': 'per-username' };

export const policyNameOf = (client: RateLimitedClient): string => policyNames[client.kind];

/** The bucket of a username's password checks (calendarPasswordChecksPerMinute), apart from its requests' bucket. */
export const passwordChecksBucketKeyOf = (username: string): string => `calendar-password-checks:${username}`;
