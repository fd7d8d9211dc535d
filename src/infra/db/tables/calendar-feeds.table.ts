import type { Selectable } from 'kysely';

/** A calendar feed token: the feed it reads, as whom, and the SHA-256 of the token (never the token). */
export type CalendarFeedsTable = {
  id: string;
  /** The creator's workspace; null for an LV1 token that carries none. */
  workspace: string | null;
  owner_sub: string;
  owner_level: number;
  owner_groups: string[];
  owner_email: string | null;
  /** The resource whose feed this is; null: the creator's own bookings. */
  bookable_resource_id: string | null;
  token_hash: string;
  created_at: Date;
  revoked_at: Date | null;
};

export type CalendarFeedRow = Selectable<CalendarFeedsTable>;
