import type { PublishedBody } from '../published-body.js';
import { answeredEntry, type WaitlistEntry } from './waitlist-entry.js';

/** Events of the resource's stream (contract §23); each carries the entry as it is after it. `by`: the acting sub or "system". */
export type WaitlistJoined = { type: 'WaitlistJoined'; data: { entry: WaitlistEntry; by: string; at: string } };
export type WaitlistFulfilled = { type: 'WaitlistFulfilled'; data: { entry: WaitlistEntry; by: string; at: string } };
export type WaitlistClosed = { type: 'WaitlistClosed'; data: { entry: WaitlistEntry; by: string; at: string } };

export type WaitlistEvent = WaitlistJoined | WaitlistFulfilled | WaitlistClosed;

export const publishedWaitlistEventName = {
  WaitlistJoined: 'waitlist.join',
  WaitlistFulfilled: 'waitlist.fulfil',
  WaitlistClosed: 'waitlist.close',
} as const satisfies Record<WaitlistEvent['type'], string>;

export const waitlistEventTypes: ReadonlySet<string> = new Set(Object.keys(publishedWaitlistEventName));

export function isWaitlistEvent(event: { type: string; data: unknown }): event is WaitlistEvent {
  return waitlistEventTypes.has(event.type);
}

/** The published form of a waitlist event: data is the entry; null for any other event. */
export function waitlistEventBody(event: { type: string; data: unknown }): PublishedBody | null {
  if (!isWaitlistEvent(event)) return null;
  const { entry, at } = event.data;
  return { event: publishedWaitlistEventName[event.type], timestamp: at, workspace: entry.workspace, data: { ...answeredEntry(entry) } };
}
