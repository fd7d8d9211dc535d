import type { Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import type { CommandContext } from '../command-context.js';

/**
 * The context with an event store whose appends also run `write` in their transaction, after the
 * caller's inline projection: what the record layer writes and what it keeps outside the record
 * (a package's bytes, a sign-in identity) commit together or not at all.
 */
export function alsoInAppend(ctx: CommandContext, write: (trx: Transaction<DB>) => Promise<void>): CommandContext {
  const { eventStore } = ctx;
  return {
    ...ctx,
    eventStore: {
      ...eventStore,
      appendToStream: (streamId, events, expectedRevision, options) =>
        eventStore.appendToStream(streamId, events, expectedRevision, {
          inlineProjection: async (trx, recorded) => {
            await options?.inlineProjection?.(trx, recorded);
            await write(trx);
          },
        }),
    },
  };
}
