import type { Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { queueWebhookDeliveries, type NewWebhookDelivery } from './webhook-delivery-queue.js';
import { envelopeKey, toEventEnvelope } from '../../domain/event-envelope.js';
import { traceparentOf } from '../../infra/telemetry/trace-context.js';
import type { Processor } from '../processor.js';

async function queueAll(trx: Transaction<DB>, events: RecordedEvent[]): Promise<void> {
  const now = new Date();
  const deliveries = events.flatMap((event): NewWebhookDelivery[] => {
    const envelope = toEventEnvelope(event);
    return envelope ? [{ envelope, orderingKey: event.streamId, resourceId: envelopeKey(envelope), now, traceparent: traceparentOf(event.metadata) }] : [];
  });
  await queueWebhookDeliveries(trx, deliveries);
}

/**
 * Queues every published event (contract §8, §14) for webhook delivery in the transaction that moves its checkpoint:
 * each event is queued exactly once, however often the process dies. Deliveries are ordered per
 * resource stream. Enabled on a database with history, it starts at the end of the log: history is
 * sent only on request.
 */
export const webhookRelay: Processor = {
  name: 'webhook-relay',
  mode: 'transactional',
  firstPosition: 'log-end',
  handle: (trx, event) => queueAll(trx, [event]),
  handleBatch: queueAll,
};
