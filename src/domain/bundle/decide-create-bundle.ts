import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { BookingCreated } from '../booking/booking-events.js';
import { placementRefusal, type PlacementState } from '../placement/placement-refusal.js';
import { decideCreateBooking, type CreateBooking } from '../booking/decide-create-booking.js';
import { invalidRequest } from '../domain-error.js';
import { checkUnits } from '../resource/resource-units.js';
import { sharingOf } from '../resource/resource-parts.js';
import { usagesAfter } from '../quota/quota-changes.js';
import { bundleRefusal } from './bundle-refusal.js';

/** A bundle item: a resource by its registration key, and the units it takes (contract §21; 1 by default). */
export type BundleItem = { resourceType: string; resourceId: string; units?: number };

export const minBundleItems = 2;
export const maxBundleItems = 20;

/** The bundle's id, its items and their bookings' ids (one per item, in the items' order), the times and booker shared. */
export type CreateBundle = Omit<CreateBooking, 'id' | 'bundleId'> & { id: string; items: readonly BundleItem[]; bookingIds: readonly string[] };

/** 400 for a bundle of fewer than 2 or more than 20 items, or with a resource twice (contract §22). */
export function assertBundleItems(items: readonly BundleItem[]): void {
  if (items.length < minBundleItems || items.length > maxBundleItems) {
    throw invalidRequest(`a bundle has ${minBundleItems} to ${maxBundleItems} items`, '/body/items');
  }
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const key = `${item.resourceType}|${item.resourceId}`;
    if (seen.has(key)) throw invalidRequest('a bundle books each resource once', `/body/items/${i}`);
    if (item.units !== undefined) checkUnits(item.units, `/body/items/${i}/units`);
    seen.add(key);
  });
}

/** 400 for two items whose resources share one through parts (contract §22: a whole and its part, two wholes with a part in common). */
function assertNoSharedResource(states: readonly PlacementState[]): void {
  const resources = states.map((state) => state.resource);
  const sharing = sharingOf(resources.flatMap((r) => (r?.parts ? [{ id: r.id, parts: r.parts }] : [])));
  resources.forEach((resource, j) => {
    const shared = resource && resources.slice(0, j).find((other) => other && sharing.get(resource.id)?.has(other.id));
    if (shared) throw invalidRequest(`the item's resource shares one with ${shared.resourceId} through parts: book the whole, or its parts`, `/body/items/${j}`);
  });
}

/**
 * Item `i`'s state with the earlier items of the bundle counted in its quota usage: they are the
 * same booker's, at the same times, so together they may not pass a quota that one alone would.
 */
function withEarlierItems(command: CreateBundle, states: readonly PlacementState[], i: number): PlacementState {
  const state = states[i]!;
  if (state.quotas.length === 0) return state;
  const { startTime, endTime } = command;
  const earlier = states.slice(0, i).flatMap((s, j) => (s.resource ? [{ id: command.bookingIds[j]!, resource: s.resource, startTime, endTime }] : []));
  return { ...state, quotas: usagesAfter(state.quotas, { before: [], after: earlier }) };
}

/**
 * One decision over every item: each judged by the create's verdict (placementRefusal) on its own
 * resource's state (`states`, in the items' order; a state without resource for an unregistered
 * item; the earlier items counted in its quotas), the bundle refused as bundleRefusal orders it; else one booking per item, each carrying
 * the bundle's id. All or nothing: a refused item refuses the bundle.
 */
export function decideCreateBundle(command: CreateBundle, states: readonly PlacementState[], actor: Principal, now: Temporal.Instant): BookingCreated[] {
  assertBundleItems(command.items);
  assertNoSharedResource(states);
  const judged = states.map((_, i) => withEarlierItems(command, states, i));
  const refusal = bundleRefusal(judged.map((state, i) => placementRefusal({ ...command, units: command.items[i]!.units }, state, actor, now)));
  if (refusal) throw refusal;
  return judged.map((state, i) => decideCreateBooking({ ...command, id: command.bookingIds[i]!, bundleId: command.id, units: command.items[i]!.units }, state, actor, now));
}
