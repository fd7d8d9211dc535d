import type { Blackout } from './blackout.js';

/** `by` is the acting token's sub; `at` is ISO 8601 UTC. The data carries the whole blackout. */
export type BlackoutCreated = { type: 'BlackoutCreated'; data: { blackout: Blackout; by: string; at: string } };
export type BlackoutDeleted = { type: 'BlackoutDeleted'; data: { blackout: Blackout; by: string; at: string } };

export type BlackoutEvent = BlackoutCreated | BlackoutDeleted;

/** The platform event name each blackout event is published as (contract §17). */
export const publishedBlackoutEventName = {
  BlackoutCreated: 'blackout.create',
  BlackoutDeleted: 'blackout.delete',
} as const satisfies Record<BlackoutEvent['type'], string>;

export const blackoutEventTypes: ReadonlySet<string> = new Set(Object.keys(publishedBlackoutEventName));

export function isBlackoutEvent(event: { type: string; data: unknown }): event is BlackoutEvent {
  return blackoutEventTypes.has(event.type);
}
