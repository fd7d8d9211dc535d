import { DomainError } from '../domain-error.js';
import type { BookingConflict } from '../domain-error.js';
import { conflictRefusal } from '../booking/find-conflicts.js';

/** The item a refusal is about, named by its 0-based index in the bundle's items. */
const ofItem = (refusal: DomainError, item: number) => new DomainError(refusal.code, `item ${item}: ${refusal.message}`, { ...refusal.details, item });

/**
 * The refusal of a bundle from the refusals of its items, each judged as its own create or move
 * (null: accepted), in contract §22's order: 400 and 403 (the same for every item: they depend on
 * the times and the caller), then 404 for the first unknown item, then 422 for the first item that
 * violates a policy (with `item`), then 409 with the conflicts of every item; null when all pass.
 */
export function bundleRefusal(refusals: readonly (DomainError | null)[]): DomainError | null {
  const first = (code: DomainError['code']) => refusals.findIndex((r) => r?.code === code);
  for (const code of ['invalid_request', 'forbidden', 'invalid_transition', 'bundle_member'] as const) {
    const at = first(code);
    if (at >= 0) return refusals[at]!;
  }
  for (const code of ['not_found', 'policy_violation'] as const) {
    const at = first(code);
    if (at >= 0) return ofItem(refusals[at]!, at);
  }
  const conflicts: BookingConflict[] = refusals.flatMap((r) => (r?.code === 'booking_conflict' ? (r.details.conflicts ?? []) : []));
  if (conflicts.length > 0) return conflictRefusal(conflicts);
  return refusals.find((r) => r !== null) ?? null;
}

/** The refusal a decision throws, or null when it decides. */
export function refusalOf(decide: () => unknown): DomainError | null {
  try {
    decide();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
