/** One field's move, as a booking history reports it. */
export type FieldChange = { from: unknown; to: unknown };

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between two forms of a record, each with its value before and after.
 * A record that did not exist before changes every field that is not null.
 */
export function recordChanges(before: Record<string, unknown> | null, after: Record<string, unknown>): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of new Set([...Object.keys(before ?? {}), ...Object.keys(after)])) {
    const from = before?.[field] ?? null;
    const to = after[field] ?? null;
    if (!sameValue(from, to)) changes[field] = { from, to };
  }
  return changes;
}
