import { queueWebhookDelivery } from '../../infra/webhooks/webhook-delivery-queue.js';
import { toEventEnvelope } from '../event-envelope.js';
import type { Processor } from '../processor.js';

/**
 * Queues every booking event for webhook delivery in the transaction that moves its checkpoint:
 * each event is queued exactly once, however often the process dies. Deliveries are ordered per
 * resource stream. Enabled on a database with history, it starts at the end of the log: history is
 * sent only on request.
 */
export const webhookRelay: Processor = {
  name: 'webhook-relay',
  mode: 'transactional',
  firstPosition: 'log-end',
  async handle(trx, event) {
    const envelope = toEventEnvelope(event);
    if (!envelope) return;
    await queueWebhookDelivery(trx, { envelope, orderingKey: event.streamId, resourceId: String(envelope.data.resourceId), now: new Date() });
  },
};
