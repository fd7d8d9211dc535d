import type { JSONColumnType } from 'kysely';
import type { WaitlistStatus } from '../../../domain/waitlist/waitlist-entry.js';
import type { StoredWaitlistEntry } from '../../../domain/waitlist/upcast-waitlist-entry.js';

/** The waitlist entries (one row an entry, the record as its last event carries it). */
export type WaitlistEntriesTable = {
  id: string;
  workspace: string;
  bookable_resource_id: string;
  /** The join's revision in the resource's stream: the entries' order. */
  queued_at: string | number;
  booker_profile_id: string;
  created_by: string;
  status: WaitlistStatus;
  start_time: Date;
  end_time: Date;
  /** As its events wrote it: upcastWaitlistEntry gives what a reader decides on. */
  entry: JSONColumnType<StoredWaitlistEntry, string, string>;
  created_at: Date;
};
