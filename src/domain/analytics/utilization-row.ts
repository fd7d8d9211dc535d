/** The bookings' side of a row, as the read model sums them per resource and period. */
export type BookingFigures = {
  bookedMinutes: number;
  bookings: number;
  cancelled: number;
  noShows: number;
  completed: number;
  checkedIn: number;
};

/** Booked over open minutes; null when the resource was not open at all (no ratio to give). */
export const utilizationOf = (bookedMinutes: number, openMinutes: number): number | null => (openMinutes > 0 ? bookedMinutes / openMinutes : null);

/**
 * One row of the utilization answer (contract §14) as JSON text, properties in the documented
 * order; `day` only when grouped by day. Written directly: an answer holds thousands of rows, and
 * building them as objects for JSON.stringify cost a third of the request's CPU. The resource id (a
 * uuid) and the day (YYYY-MM-DD) need no escaping; numbers print as JSON.stringify prints them.
 */
export function utilizationRowJson(resourceId: string, day: string | null, openMinutes: number, figures: BookingFigures): string {
  const ratio = utilizationOf(figures.bookedMinutes, openMinutes);
  return (
    `{"resourceId":"${resourceId}"${day === null ? '' : `,"day":"${day}"`},"openMinutes":${openMinutes},"bookedMinutes":${figures.bookedMinutes},` +
    `"utilization":${ratio === null ? 'null' : ratio},"bookings":${figures.bookings},"cancelled":${figures.cancelled},"noShows":${figures.noShows},` +
    `"completed":${figures.completed},"checkedIn":${figures.checkedIn}}`
  );
}
