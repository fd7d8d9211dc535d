/**
 * The read model's exclusion constraint refused an overlap that the state we decided on did not
 * show (a writer outside the stream's revision check): reload and decide again, which answers 409.
 */
export function overlapMeansRetry(error: { code?: string; constraint?: string }): 'retry' | undefined {
  return error.code === '23P01' && error.constraint === 'bookings_no_overlap' ? 'retry' : undefined;
}
