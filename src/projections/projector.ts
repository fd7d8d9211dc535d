import type { Transaction } from 'kysely';
import type { DB } from '../infra/db/schema.js';
import type { InlineProjection } from '../infra/event-store/event-store.js';

/** Columns of a table written beside the events (secrets, bytes), found again by the row's key. */
export type KeptColumns = { table: keyof DB; key: string[]; columns: string[] };

/** Keeps one read model current: applies the events it handles, inside the append's transaction. */
export type Projector = InlineProjection<Transaction<DB>> & {
  name: string;
  /** The tables it owns: emptied and filled again from the log by a rebuild. */
  tables: readonly (keyof DB)[];
  /** What the log cannot rebuild: a rebuild carries these columns over to the rebuilt rows. */
  kept?: readonly KeptColumns[];
  /**
   * Its tables back rules checked in the append's transaction (unique keys, references) and take
   * columns written beside the events: it runs in the append's transaction even when the others
   * follow the log (PROJECTIONS=async).
   */
  inAppend?: true;
};
