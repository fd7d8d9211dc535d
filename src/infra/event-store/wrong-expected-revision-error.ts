import type { ExpectedRevision } from './event-store.js';

/** The stream moved on since the writer read it: reload, decide again, retry. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | null,
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}
