import { Temporal } from 'temporal-polyfill';
import { DomainError } from '../domain-error.js';
import type { ResourceType } from './resource.js';

/** Which registration a reservation stream guards: one live resource per key. */
export type RegistrationKey = { workspace: string; resourceType: ResourceType; resourceId: string };

/**
 * The stream of one (workspace, type, resourceId): a registration is appended to it with the
 * revision it read (no stream the first time), so two registrations racing on any store never
 * both win. Parts are percent-encoded: no workspace or id can make two keys one stream.
 */
export const registrationStreamId = (key: RegistrationKey) =>
  `registration-${encodeURIComponent(key.workspace)}/${key.resourceType}/${encodeURIComponent(key.resourceId)}`;

export type RegistrationReserved = { type: 'RegistrationReserved'; data: RegistrationKey & { resource: string; at: string } };

/** A registration whose resource could not be written gives its reservation back. */
export type RegistrationReleased = { type: 'RegistrationReleased'; data: RegistrationKey & { resource: string; at: string } };

export type RegistrationEvent = RegistrationReserved | RegistrationReleased;

/** The resource holding the key, and when it took it; null when the key is free. */
export type Reservation = { resource: string; at: string } | null;

export function evolveReservation(_current: Reservation, event: RegistrationEvent): Reservation {
  switch (event.type) {
    case 'RegistrationReserved':
      return { resource: event.data.resource, at: event.data.at };
    case 'RegistrationReleased':
      return null;
  }
}

/** What became of the holder's resource: registered, removed, or not written (yet, or ever). */
export type HolderState = 'registered' | 'removed' | 'absent';

/**
 * A reservation whose resource is still absent this long after it is taken to have failed
 * without giving the key back (the process stopped between the two appends).
 */
export const abandonedAfter = Temporal.Duration.from({ minutes: 1 });

/**
 * Reserves the key for `resource`: refused while another resource holds it, free once that one is
 * removed, released, or abandoned before it was written.
 */
export function decideReserveRegistration(
  key: RegistrationKey,
  resource: string,
  current: { reservation: Reservation; holder: HolderState },
  now: Temporal.Instant,
): RegistrationReserved {
  const { reservation, holder } = current;
  const abandoned = holder === 'absent' && reservation !== null && Temporal.Instant.compare(now, Temporal.Instant.from(reservation.at).add(abandonedAfter)) >= 0;
  if (reservation && holder !== 'removed' && !abandoned) {
    throw new DomainError('already_registered', `${key.resourceType} ${key.resourceId} is already registered in this workspace (resource ${reservation.resource})`);
  }
  return { type: 'RegistrationReserved', data: { ...key, resource, at: now.toString() } };
}
