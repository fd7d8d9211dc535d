export type ResourceType = 'zone' | 'device';

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

/** Wall-clock "HH:MM"; an end may be "24:00". */
export type TimeWindow = { start: string; end: string };

/** Operating hours; null on a resource means open around the clock. */
export type Availability = { timeZone: string; hours: Partial<Record<Weekday, TimeWindow[]>> };

export type CancellationPolicy = { minNoticeMinutes: number };

export type BookingPolicy = {
  maxDurationMinutes: number;
  maxAdvanceDays: number;
  minNoticeMinutes: number;
  allowRecurring: boolean;
  autoConfirm: boolean;
  maxBookingsPerUser: number | null;
  cancellationPolicy: CancellationPolicy;
  gracePeriodMinutes: number;
  /** Minutes a booking also holds before its start and after its end (contract §17, 0–1440). */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Profile ids that decide the pending bookings besides LV1–LV3 (contract §24). */
  approvers: string[];
  /** A booking still pending this many minutes before its start is cancelled; null: at its start. */
  approvalDeadlineMinutes: number | null;
  /** booking.approval_reminder this many minutes after a pending booking was made; null: none. */
  approvalReminderMinutes: number | null;
  /** Occurrences of a series invitation this room may decline while it books the rest (contract §26; Exchange's MaximumConflictInstances). */
  schedulingConflictsAllowed: number;
};

export type BookingPolicyPatch = Partial<Omit<BookingPolicy, 'cancellationPolicy'>> & {
  cancellationPolicy?: Partial<CancellationPolicy>;
};

export const defaultBookingPolicy: BookingPolicy = {
  maxDurationMinutes: 480,
  maxAdvanceDays: 180,
  minNoticeMinutes: 0,
  allowRecurring: true,
  autoConfirm: true,
  maxBookingsPerUser: null,
  cancellationPolicy: { minNoticeMinutes: 0 },
  gracePeriodMinutes: 15,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  approvers: [],
  approvalDeadlineMinutes: null,
  approvalReminderMinutes: null,
  schedulingConflictsAllowed: 0,
};

/** Field-by-field merge: what the patch names replaces, everything else stays. */
export function mergeBookingPolicy(base: BookingPolicy, patch: BookingPolicyPatch = {}): BookingPolicy {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as BookingPolicyPatch;
  return {
    ...base,
    ...defined,
    cancellationPolicy: { ...base.cancellationPolicy, ...(defined.cancellationPolicy ?? {}) },
  } as BookingPolicy;
}

/** A bookable resource: a reference to a zone or device of the device service, with its rules. */
export type Resource = {
  id: string;
  workspace: string;
  resourceType: ResourceType;
  resourceId: string;
  resourceName: string | null;
  capacity: number | null;
  /** How many bookings of one unit it holds at the same time (contract §21): a desk area of 40 desks has 40; 1 for a room. */
  units: number;
  /**
   * A combined room's parts (contract §22): registration ids of resources of one unit without parts
   * of their own. A booking of the whole occupies them too; null for a resource without parts.
   */
  parts: string[] | null;
  groupId: string | null;
  isActive: boolean;
  bookingPolicy: BookingPolicy;
  availability: Availability | null;
  removed: boolean;
  createdAt: string;
  updatedAt: string;
};

export const resourceStreamId = (id: string) => `resource-${id}`;
