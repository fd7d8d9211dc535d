/** The bookings' side of a row, as the read model sums them per resource and period. */
export type BookingFigures = {
  bookedMinutes: number;
  bookings: number;
  cancelled: number;
  noShows: number;
  completed: number;
  checkedIn: number;
};

export type UtilizationRow = { resourceId: string; day?: string; openMinutes: number; utilization: number | null } & BookingFigures;

/** Booked over open minutes; null when the resource was not open at all (no ratio to give). */
export const utilizationOf = (bookedMinutes: number, openMinutes: number): number | null => (openMinutes > 0 ? bookedMinutes / openMinutes : null);

export function utilizationRow(resourceId: string, day: string | null, openMinutes: number, figures: BookingFigures): UtilizationRow {
  return {
    resourceId,
    ...(day === null ? {} : { day }),
    openMinutes,
    bookedMinutes: figures.bookedMinutes,
    utilization: utilizationOf(figures.bookedMinutes, openMinutes),
    bookings: figures.bookings,
    cancelled: figures.cancelled,
    noShows: figures.noShows,
    completed: figures.completed,
    checkedIn: figures.checkedIn,
  };
}
