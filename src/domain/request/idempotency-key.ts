/** 1–255 printable ASCII characters (space to tilde), contract §18. */
const validKey = /^[\x20-\x7e]{1,255}$/;

export const isValidIdempotencyKey = (key: string): boolean => validKey.test(key);

/** How long a completed request's answer is kept. */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1_000;

/** How long a request in flight holds its key: a process that died mid-request frees it then. */
export const idempotencyLeaseMs = 60_000;

/** What a key held by an earlier request (same caller) means for a new one. */
export type HeldKeyVerdict = 'replay' | 'reused' | 'in_flight';

/**
 * Another method, path or body is a misuse of the key whatever the first request's state;
 * the same request replays the kept answer once there is one.
 */
export function verdictOnHeldKey(held: { fingerprint: string; state: 'in_flight' | 'done' }, fingerprint: string): HeldKeyVerdict {
  if (held.fingerprint !== fingerprint) return 'reused';
  return held.state === 'done' ? 'replay' : 'in_flight';
}
