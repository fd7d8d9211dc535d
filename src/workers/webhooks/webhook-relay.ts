import { queueWebhookDelivery } from '../../infra/webhooks/webhook-delivery-queue.js';
import { toEventEnvelope } from '../../domain/booking/event-envelope.js';
import type { Processor } from '../processor.js';

/**
 * Queues every booking event for webhook delivery in the transaction that moves its checkpoint:
 * each event is queued exactly once, however often the process dies. Deliveries are ordered per
 * resource stream.
 */
export const webhookRelay: Processor = {
  name: 'webhook-relay',
  mode: 'transactional',
  async handle(trx, event) {
    const envelope = toEventEnvelope(event);
    if (!envelope) return;
    await queueWebhookDelivery(trx, { envelope, orderingKey: event.streamId, resourceId: String(envelope.data.resourceId), now: new Date() });
  },
};
