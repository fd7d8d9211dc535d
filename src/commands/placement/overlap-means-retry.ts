/**
 * The read model's exclusion constraint refused an overlap that the state we decided on did not
 * show (a writer outside the stream's revision check), or the append's blackout guard (migration
 * 0019) found a blackout committed after the state was read: reload and decide again, which
 * answers 409 or 422 policy blackout; or the append's count of a pool (migration 0031) found more
 * units in use than the decision saw, or its occupation guard (migration 0033) a booking of a
 * resource sharing one with it (contract §22).
 */
const retriedChecks = new Set(['bookings_outside_blackouts', 'bookings_within_pool_units', 'bookings_share_no_resource']);

export function overlapMeansRetry(error: { code?: string; constraint?: string }): 'retry' | undefined {
  if (error.code === '23P01' && error.constraint === 'bookings_no_overlap') return 'retry';
  return error.code === '23514' && error.constraint !== undefined && retriedChecks.has(error.constraint) ? 'retry' : undefined;
}
