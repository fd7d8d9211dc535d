import { Temporal } from 'temporal-polyfill';
import { archivableStatuses, archiveCutoff, decideArchiveBookings } from '../../domain/booking/decide-archive-bookings.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { rowToBooking } from '../../projections/booking/booking-row.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

/** Bookings archived per append: one transaction on one resource stream, bounded in size. */
const batchSize = 1_000;

/**
 * Resources archived at once, each on its own connection: a resource's batch is a few round trips
 * of small statements, so one at a time leaves the database mostly waiting on the next.
 */
const resourcesAtOnce = 4;

export type ArchiveProgress = (archived: number, total: number) => void;

const archivable = (db: Executor, cutoffMs: number) =>
  db.selectFrom('bookings').where('end_time', '<', new Date(cutoffMs)).where('status', 'in', [...archivableStatuses]);

/**
 * Archives every booking that has ended before `before` (and before now), resource by resource
 * (`resourcesAtOnce` at a time), up to batchSize bookings per append on the resource's stream
 * through the one command loop.
 * Each append commits on its own: a run that stops half way has archived whole batches, and the
 * next run finds only what is left (an archived booking is no longer in `bookings`), so running
 * again is harmless.
 */
export async function archiveBookings(ctx: CommandContext, before: Temporal.Instant, onProgress?: ArchiveProgress): Promise<{ archived: number }> {
  const now = ctx.now();
  const cutoff = archiveCutoff(before, now);
  const { total } = await archivable(ctx.db, cutoff)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const resources = await archivable(ctx.db, cutoff).select('bookable_resource_id').distinct().execute();
  let archived = 0;
  onProgress?.(0, Number(total));
  const archiveResource = async (resourceId: string) => {
    for (;;) {
      const { events } = await handleCommand(ctx, resourceStreamId(resourceId), {
        load: async (db) =>
          (
            await archivable(db, cutoff).selectAll().where('bookable_resource_id', '=', resourceId).orderBy('end_time').orderBy('id').limit(batchSize).execute()
          ).map(rowToBooking),
        decide: (bookings) => decideArchiveBookings(bookings, Temporal.Instant.fromEpochMilliseconds(cutoff), now),
      });
      archived += events.length;
      onProgress?.(archived, Math.max(archived, Number(total)));
      if (events.length < batchSize) return;
    }
  };
  const queue = resources.map((row) => row.bookable_resource_id);
  const archiver = async () => {
    try {
      for (let resourceId = queue.shift(); resourceId !== undefined; resourceId = queue.shift()) await archiveResource(resourceId);
    } catch (error) {
      // The others finish the batch they are in and take no further resource.
      queue.length = 0;
      throw error;
    }
  };
  const failed = (await Promise.allSettled(Array.from({ length: resourcesAtOnce }, archiver))).find((run) => run.status === 'rejected');
  if (failed) throw failed.reason;
  return { archived };
}
