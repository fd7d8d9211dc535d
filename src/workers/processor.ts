import type { Transaction } from 'kysely';
import type { DB } from '../infra/db/schema.js';
import type { RecordedEvent } from '../infra/event-store/event-store.js';
import type { FirstPosition } from '../infra/event-store/processor-checkpoint.js';

/**
 * Follows the global log from its own checkpoint and acts on the events it cares about.
 * - transactional: `handle` writes through the transaction that also moves the checkpoint, so its
 *   effect commits exactly once.
 * - at-least-once: `handle` acts outside that transaction (a broker, a command on another stream)
 *   and must tolerate a repeat: the checkpoint moves only after it returned.
 */
export type Processor = (
  | {
      name: string;
      mode: 'transactional';
      handle(trx: Transaction<DB>, event: RecordedEvent): Promise<void>;
      /** The same as `handle` on each event in turn, in fewer statements. */
      handleBatch?(trx: Transaction<DB>, events: RecordedEvent[]): Promise<void>;
    }
  | {
      name: string;
      mode: 'at-least-once';
      handle(event: RecordedEvent): Promise<void>;
      /**
       * The same as `handle` on each event in turn, in one step (one request to a broker): the
       * checkpoint moves past the batch only when it succeeded, so a failure repeats all of it.
       */
      handleBatch?(events: RecordedEvent[]): Promise<void>;
    }
) & {
  /** Where it begins the first time it runs (default: the start of the log). */
  firstPosition?: FirstPosition;
};
