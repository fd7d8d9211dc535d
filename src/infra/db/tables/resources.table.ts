import type { Generated, JSONColumnType, Selectable } from 'kysely';
import type { Availability, BookingPolicy } from '../../../domain/resource/resource.js';

export type ResourcesTable = {
  id: string;
  workspace: string;
  resource_type: 'zone' | 'device';
  resource_id: string;
  resource_name: string | null;
  capacity: number | null;
  units: Generated<number>;
  /** Whether the resource has ever had more than one unit: its bookings are then counted in the append (migration 0031). */
  counted: Generated<boolean>;
  /** A combined room's parts (contract §22), null without. */
  parts: string[] | null;
  group_id: string | null;
  is_active: boolean;
  booking_policy: JSONColumnType<BookingPolicy, string, string>;
  availability: JSONColumnType<Availability | null, string | null, string | null>;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  stream_revision: number;
};

export type ResourceRow = Selectable<ResourcesTable>;
