import type { PublishedBody } from '../published-body.js';
import { isBlackoutEvent, publishedBlackoutEventName } from './blackout-events.js';

/** The published form of a blackout event: data is the blackout (contract §17); null for any other event. */
export function blackoutEventBody(event: { type: string; data: unknown }): PublishedBody | null {
  if (!isBlackoutEvent(event)) return null;
  const { blackout, at } = event.data;
  return { event: publishedBlackoutEventName[event.type], timestamp: at, workspace: blackout.workspace, data: { ...blackout } };
}
