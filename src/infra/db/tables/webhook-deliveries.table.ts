import type { Generated, JSONColumnType, Selectable } from 'kysely';
import type { EventEnvelope } from '../../../domain/event-envelope.js';

export type WebhookDeliveriesTable = {
  id: string;
  event_id: string;
  event: string;
  workspace: string;
  /** Deliveries with one key leave in queue order: the bookable resource of the booking. */
  ordering_key: string;
  resource_id: string;
  payload: JSONColumnType<EventEnvelope, string, string>;
  queue_order: Generated<number>;
  status: 'pending' | 'dead';
  attempts: Generated<number>;
  next_attempt_at: Date;
  claimed_until: Date | null;
  /** The claim that leased it (a random id per claim statement); null while unclaimed. */
  claim_id: string | null;
  last_error: string | null;
  last_status_code: number | null;
  dead_lettered_at: Date | null;
  created_at: Generated<Date>;
  /** W3C trace context of the request that wrote the event; null when it was not traced. */
  traceparent: string | null;
};

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
