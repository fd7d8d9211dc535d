/** A time when resources take no bookings (a holiday, a closure, a repair); times are ISO 8601 UTC. */
export type Blackout = {
  id: string;
  workspace: string;
  /** Registration ids; null covers every resource of the workspace, also those registered later. */
  resourceIds: string[] | null;
  from: string;
  to: string;
  reason: string;
  createdBy: string;
  createdAt: string;
};

/** The workspace stream every blackout of the workspace is appended to. */
export const blackoutStreamId = (workspace: string) => `blackouts-${workspace}`;

/** Whether the blackout covers the registered resource. */
export const coversResource = (blackout: Blackout, resourceId: string) => blackout.resourceIds === null || blackout.resourceIds.includes(resourceId);
