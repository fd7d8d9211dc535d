import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';

/** What a feed shows: one resource's bookings, or the bookings of one booker (its creator). */
export type FeedSubject = { kind: 'resource'; bookableResourceId: string } | { kind: 'booker'; sub: string; workspace: string | null };

/** A feed token as stored: the subject it reads and whom it reads as. */
export type CalendarFeed = {
  id: string;
  /** The resource whose feed this is; null: the creator's own bookings. */
  bookableResourceId: string | null;
  owner: Principal;
  createdAt: string;
};

/** The days a feed covers (contract §18): 30 back, 180 ahead; a cancellation shows for 30 days. */
export const feedDaysBack = 30;
export const feedDaysAhead = 180;

/**
 * At most this many events per feed, the earliest first: a feed is one answer a calendar app reads
 * whole, so its work is bounded whatever the resource holds (a resource booked every 30 minutes
 * around the clock for the 210 days is about 10,000).
 */
export const maxFeedEvents = 5000;

export type FeedWindow = { from: Temporal.Instant; to: Temporal.Instant; cancelledSince: Temporal.Instant };

export function feedWindow(now: Temporal.Instant): FeedWindow {
  return {
    from: now.subtract({ hours: 24 * feedDaysBack }),
    to: now.add({ hours: 24 * feedDaysAhead }),
    cancelledSince: now.subtract({ hours: 24 * feedDaysBack }),
  };
}

/** Whether a feed token opens the feed at this URL: only the one it was made for. */
export function feedOpens(feed: Pick<CalendarFeed, 'bookableResourceId'>, subject: { kind: 'resource'; bookableResourceId: string } | { kind: 'booker' }): boolean {
  if (subject.kind === 'booker') return feed.bookableResourceId === null;
  return feed.bookableResourceId !== null && feed.bookableResourceId.toLowerCase() === subject.bookableResourceId.toLowerCase();
}
