import { DomainError } from '../../domain/domain-error.js';
import type { CommandContext } from '../command-context.js';

/** Why a store without transactions over several streams refuses combined rooms (contract §22, README). */
export const combinedRoomsNeedPostgres = 'combined rooms need EVENT_STORE=postgres: their guard runs in the append, which EventStoreDB does not share with PostgreSQL';

/**
 * A whole and its parts are booked on their own streams; what keeps them apart is the guard in the
 * PostgreSQL append (migration 0033). EventStoreDB appends elsewhere: giving a resource parts there
 * answers 503, so no whole exists whose bookings nothing would keep from its parts'.
 */
export function assertCombinedRoomsStore(ctx: CommandContext): void {
  if (!ctx.eventStore.appendInOneTransaction) throw new DomainError('dependency_unavailable', combinedRoomsNeedPostgres);
}
