import type { Temporal } from 'temporal-polyfill';
import type { ProcessorLag } from '../metrics/processor-lag.js';
import type { RecordedEvent } from './event-store.js';

/** A recorded event with its stream's chain link (contract §13). */
export type ChainedEvent = RecordedEvent & { hash: string };

/** A stream event as the asOf fold reads it; `recordedUs`: when recorded, in microseconds since the epoch. */
export type EventAsOf = { revision: number; recordedUs: number; type: string; data: Record<string, unknown> };

/** The published events of one page of the audit feed. */
export type PublishedRead = {
  /** A position the feed answered (0: the start of the log). */
  after: number;
  maxCount: number;
  /** Published names to keep (contract §8, §14). */
  names: readonly string[];
  /** Only events of this workspace; undefined = every workspace. */
  workspace?: string;
  /**
   * Only events up to the one at this position, inclusive (a head `readHeadPosition` answered): a
   * page that reaches it, or starts past it, answers `next` = `upTo`. Undefined = up to the log's end.
   */
  upTo?: number;
};

/** `next`: the position to continue after; `after` when nothing new is final yet. */
export type PublishedPage = { events: RecordedEvent[]; next: number };

/** A page of published events, each as the JSON text of its envelope (contract §8, §14); `next` as in `PublishedPage`. */
export type PublishedJsonPage = { envelopes: string[]; next: number };

/** An event whose stored link does not follow from its stream's earlier events. */
export type ChainBreak = {
  globalPosition: number;
  eventId: string;
  streamId: string;
  revision: number;
  reason: 'hash does not match' | 'revision missing before it' | 'stream head does not match' | 'no hash stored';
};

export type ChainVerification = { checked: number; breaks: ChainBreak[] };

/**
 * What auditors and operators read from the log (history, the audit feed, asOf, verify-log, the
 * processors' lag), from the store that keeps it (EVENT_STORE): one implementation per store.
 */
export type LogReader = {
  /** Up to `limit` events of the stream after revision `after`, in revision order. */
  readStreamEvents(streamId: string, after: number, limit: number): Promise<ChainedEvent[]>;
  /** Every event that carries the booking, oldest first; none for a booking the service does not know. */
  readBookingEvents(bookingId: string): Promise<ChainedEvent[]>;
  /** The booking as its last event recorded at or before `asOf` left it, or null. */
  readBookingAsOf(bookingId: string, asOf: Temporal.Instant): Promise<Record<string, unknown> | null>;
  /** The stream's events after revision `after` recorded at or before `asOf`, in revision order. */
  readStreamAsOf(streamId: string, after: number, asOf: Temporal.Instant): Promise<EventAsOf[]>;
  /** A page of published events after a position the feed answered; null when `after` or `upTo` names no event of the log. */
  readPublished(read: PublishedRead): Promise<PublishedPage | null>;
  /**
   * The page `readPublished` answers, each event as the JSON text of its envelope (parsed, it is
   * `toEventEnvelope` of the event; its bytes may differ from JSON.stringify's); the events
   * published under no name left out.
   */
  readPublishedJson(read: PublishedRead): Promise<PublishedJsonPage | null>;
  /** The position of the log's last event, in the numbering of `readPublished`; 0 when the log is empty. */
  readHeadPosition(): Promise<number>;
  /** Every processor's checkpoint and how many events of the log lie beyond it. */
  readProcessorLags(): Promise<ProcessorLag[]>;
  /**
   * Recomputes every stream's chain. Each broken stream is reported once, at its first bad event;
   * the breaks come back in log order. `onProgress` hears the events checked, of about `total`.
   */
  verifyHashChains(onProgress?: (checked: number, total: number) => void): Promise<ChainVerification>;
};
