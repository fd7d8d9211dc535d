import { DomainError } from '../../domain/domain-error.js';
import type { CommandContext } from '../command-context.js';

/** Why a store whose read models follow the log refuses combined rooms (contract §22, docs/booking.md). */
export const combinedRoomsNeedPostgres =
  'combined rooms need EVENT_STORE=postgres with PROJECTIONS=inline: a whole and its parts are booked on their own streams, kept apart by reading each other\'s bookings and by the guard in the PostgreSQL append';

/**
 * A whole and its parts are booked on their own streams; what keeps them apart is each decision
 * reading the others' bookings in the read model and the guard in the PostgreSQL append
 * (migration 0033), both of which need the read model written in the append. EventStoreDB appends
 * elsewhere, and PROJECTIONS=async writes the read model after the commit: giving a resource parts
 * there answers 503, so no whole exists whose bookings nothing would keep from its parts'.
 */
export function assertCombinedRoomsStore(ctx: CommandContext): void {
  if (!ctx.eventStore.appendInOneTransaction || ctx.eventStore.projectsAfterCommit) throw new DomainError('dependency_unavailable', combinedRoomsNeedPostgres);
}
